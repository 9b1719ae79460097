/* Sampling with 4 threads at rate 1: every block of every thread reaches
   the callback, in the thread that allocated it, with its exact size;
   what a callback allocates is not sampled; tracked blocks freed by
   another thread than their own are reported once.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-timeout 120 } */

#include <pthread.h>
#include <gc.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 20000

static __thread int me = -1;            /* the thread's number */
static _Atomic long samples[THREADS], wrong_thread, nested, deallocs;
static __thread int in_alloc;
static void *blocks[THREADS][N / 10];   /* freed by main */

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  if (me < 0)
    {
      wrong_thread++;
      return NULL;
    }
  nested += in_alloc;
  in_alloc = 1;
  free (malloc (64));           /* not sampled: no nested call */
  in_alloc = 0;
  samples[me] += a->n_samples;
  return a->source == MP_SOURCE_MALLOC ? (void *) a : NULL;
}

static void
on_dealloc (void *m, void *data)
{
  (void) m;
  (void) data;
  deallocs++;
}

static void *
worker (void *arg)
{
  me = (int) (long) arg;
  for (int i = 0; i < N; i++)
    {
      char *p = malloc (8 * (1 + i % 5));
      if (i % 10 == 0)
        blocks[me][i / 10] = p;
      else
        free (p);
      __asm__ volatile ("" : : "r" (GC_MALLOC (16)) : "memory");
    }
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  mpt_start (1, on_alloc, on_alloc, on_dealloc, NULL);
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  /* each thread: N malloc blocks of 1..5 words (3 on average), N GC
     blocks of 2 words */
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (samples[i], N * 3 + N * 2);
  CHECK_EQ (wrong_thread, 0);
  CHECK_EQ (nested, 0);
  CHECK_EQ (deallocs, THREADS * (N - N / 10));
  for (int i = 0; i < THREADS; i++)
    for (int j = 0; j < N / 10; j++)
      free (blocks[i][j]);
  CHECK_EQ (deallocs, THREADS * N);
  CHECK_EQ (mp_memprof_stop (), 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
