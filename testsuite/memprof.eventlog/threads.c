/* Four threads allocate on Boehm's heap and force collections, sampled
   by a tracker: each thread's events carry its own thread id and nest
   in it, each collection's spans are those of the thread that
   collected, and their numbers are the stat record's; the tracker's
   callbacks are as many spans as they were calls, in every thread.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=log.json,report=none" } */
/* { dg-timeout 120 } */

#define GC_THREADS
#include <pthread.h>
#include <stdatomic.h>
#include <gc.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 20000

static atomic_int calls;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) a, (void) data;
  atomic_fetch_add (&calls, 1);
  return NULL;
}

static void *
worker (void *arg)
{
  void *volatile keep;
  for (int i = 0; i < N; i++)
    {
      keep = GC_MALLOC (32 + 8 * (int) (long) arg);
      if (i % 5000 == 0)
        mp_minor ();
    }
  (void) keep;
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_minor = on_alloc;
  CHECK_EQ (mp_memprof_start (0.01, 4, &tr), 0);
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  mp_memprof_stop ();
  CHECK (atomic_load (&calls) > 0);

  struct mp_stat st;
  mp_quick_stat (&st);
  FILE *f = fopen ("expect.txt", "w");
  fprintf (f, "span minor %ld\nspan major %ld\nforced mp_minor %d\n"
           "span alloc_minor %d\n", st.minor_collections,
           st.major_collections, THREADS * (N / 5000),
           atomic_load (&calls));
  fclose (f);
  mp_eventlog_pause ();
  return mpt_done ();
}

/* { dg-final { scan-eventlog log.json "^balanced$" } } */
/* { dg-final { scan-eventlog log.json "^expected: ok$" expect.txt } } */
/* { dg-final { scan-eventlog log.json "^threads \[2-5\]$" } } */
