/* At rate 1 every young GC block is tracked, so the words of the
   promote callbacks add up to promoted_words exactly, with threads too.
   The first append to a thread's young log after a collection waits for
   Boehm's lock, maybe while another thread collects: the block's entry
   keeps the epoch read before, and the collection promotes it; the
   sample must have the same epoch, or the tracker sees that block young,
   and ends it with dealloc_minor, never promoted.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-timeout 120 } */

#define GC_THREADS
#include <pthread.h>
#include <stdatomic.h>
#include <gc.h>
#include "../lib/mptest.h"

#define THREADS 3
#define N 100000

static atomic_long promoted;

static void *
alloc_minor (const struct mp_allocation *a, void *data)
{
  (void) data;
  return (void *) a->size;
}

static void *
alloc_major (const struct mp_allocation *a, void *data)
{
  (void) a, (void) data;
  return NULL;
}

static void *
promote (void *meta, void *data)
{
  (void) data;
  atomic_fetch_add (&promoted, (long) meta);
  return meta;
}

/* Young blocks, none kept: only those a thread holds through a
   collection survive it.  */
static void *
thread (void *arg)
{
  long id = (long) arg;
  for (long i = 0; i < N; i++)
    GC_malloc_atomic (8 + (i * 7919 + id) % 1000);
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  struct mp_tracker tr = { alloc_minor, alloc_major, promote, NULL, NULL,
                           NULL };
  double before, after;
  mp_minor ();
  mp_counters (NULL, &before, NULL);
  CHECK_EQ (mp_memprof_start (1, 0, &tr), 0);
  /* The main thread is one of them.  */
  pthread_t th[THREADS];
  for (long i = 1; i < THREADS; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, thread, (void *) i), 0);
  thread (NULL);
  for (int i = 1; i < THREADS; i++)
    pthread_join (th[i], NULL);
  mp_full_major ();
  mp_counters (NULL, &after, NULL);
  CHECK (after > before);
  CHECK_EQ (atomic_load (&promoted), after - before);
  mp_memprof_stop ();
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
