/* Sampling with 4 threads at rate 1: every block of every thread reaches
   the callback, in the thread that allocated it, with its exact size;
   what a callback allocates is not sampled; tracked malloc blocks freed
   by another thread than their own are reported once; the GC blocks'
   promotions and deaths, delivered by whichever thread allocates, keep
   each block's order.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-timeout 120 } */

#include <pthread.h>
#include <stdatomic.h>
#include <gc.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 20000

static __thread int me = -1;            /* the thread's number */
static _Atomic long samples[THREADS], wrong_thread, nested, deallocs;
static __thread int in_alloc;
static void *blocks[THREADS][N / 10];   /* freed by main */

/* GC blocks: metadata 2 * id + 1; state 1 young, 2 major, 3 dead.  */
#define MALLOC_META ((void *) 2)
static _Atomic int gc_ids;
static _Atomic unsigned char state[THREADS * N + 1];
static _Atomic long bad, gc_deaths;

/* Move block META from state FROM to TO, counting a bad transition.  */
static void
step (void *meta, int from, int to)
{
  uintptr_t m = (uintptr_t) meta;
  unsigned char expected = (unsigned char) from;
  if (m % 2 != 1 || m / 2 > THREADS * N
      || !atomic_compare_exchange_strong (&state[m / 2], &expected, to))
    bad++;
}

static void *
on_promote (void *meta, void *data)
{
  (void) data;
  step (meta, 1, 2);
  return meta;
}

static void
on_dealloc_minor (void *meta, void *data)
{
  (void) data;
  step (meta, 1, 3);
  gc_deaths++;
}

static void
collect_and_deliver (void)
{
  collect ();
  free (malloc (64));
}

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
  if (a->source == MP_SOURCE_MALLOC)
    return MALLOC_META;
  int id = ++gc_ids;
  state[id] = a->size <= MP_MAX_YOUNG_WOSIZE ? 1 : 2;
  return (void *) (uintptr_t) (2 * id + 1);
}

static void
on_dealloc (void *m, void *data)
{
  (void) data;
  if (m == MALLOC_META)
    deallocs++;
  else
    {
      step (m, 2, 3);
      gc_deaths++;
    }
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
  mpt_start (1, (struct mp_tracker) { .alloc_minor = on_alloc,
                                      .alloc_major = on_alloc,
                                      .promote = on_promote,
                                      .dealloc_minor = on_dealloc_minor,
                                      .dealloc_major = on_dealloc });
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
  /* the GC blocks were dropped at once: most die */
  collect_and_deliver ();
  collect_and_deliver ();
  CHECK (gc_deaths > THREADS * N / 2);
  CHECK_EQ (bad, 0);
  CHECK_EQ (mp_memprof_stop (), 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
