/* Exact counts of a thread's very first call into the runtime, at a
   site another thread has numbered already: that call finds no record
   of its thread for the fast paths (thread.h's mp_fast_tls names
   mp_no_fast_thread), which must send it to the slow path, for a
   malloc, a free and a realloc.  first-call-lean.c includes this file
   with the lean entries, whose free keeps no bytesUsed.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#include <pthread.h>
#include "../lib/mptest.h"

#define THREADS 3               /* of each kind */

static void *block[3 * THREADS];

/* Between the two, the threads' first calls and nothing else: the
   dynamic linker's blocks of a new thread (not rewritten, counted) are
   made before, freed after.  */
static pthread_barrier_t go, done;

static void * __attribute__ ((noinline))
do_malloc (void)
{
  return malloc (40);
}

static void __attribute__ ((noinline))
do_free (void *p)
{
  free (p);
}

static void * __attribute__ ((noinline))
do_realloc (void *p)
{
  return realloc (p, 24);
}

/* Thread I's first call: a malloc, a free or a realloc of block[I].  */
static void *
first (void *arg)
{
  long i = (long) arg;
  pthread_barrier_wait (&go);
  switch (i % 3)
    {
    case 0:
      block[i] = do_malloc ();
      break;
    case 1:
      do_free (block[i]);
      block[i] = NULL;
      break;
    default:
      block[i] = do_realloc (block[i]);
      break;
    }
  pthread_barrier_wait (&done);
  return NULL;
}

int
main (void)
{
  /* Each site numbered, so that a thread's first call of it would take
     the fast path, had it a record.  */
  do_free (do_realloc (do_malloc ()));
  for (int i = 0; i < 3 * THREADS; i++)
    block[i] = i % 3 ? malloc (16) : NULL;

  pthread_barrier_init (&go, NULL, 3 * THREADS + 1);
  pthread_barrier_init (&done, NULL, 3 * THREADS + 1);
  pthread_t t[3 * THREADS];
  for (long i = 0; i < 3 * THREADS; i++)
    if (pthread_create (&t[i], NULL, first, (void *) i) != 0)
      {
        fprintf (stderr, "FAIL pthread_create\n");
        return 1;
      }
  struct mp_alloc_stats s0, s;
  mp_alloc_stats (&s0);
  pthread_barrier_wait (&go);
  pthread_barrier_wait (&done);
  mp_alloc_stats (&s);
  for (int i = 0; i < 3 * THREADS; i++)
    pthread_join (t[i], NULL);

  CHECK_EQ (s.numAllocate - s0.numAllocate, THREADS);
  CHECK_EQ (s.numDeallocate - s0.numDeallocate, THREADS);
  CHECK_EQ (s.numReallocate - s0.numReallocate, THREADS);
#ifndef LEAN
  /* THREADS blocks of 40 made, THREADS of 16 freed, THREADS of 16
     made 24.  */
  CHECK_EQ (s.bytesUsed - s0.bytesUsed, THREADS * (40 - 16 + 24 - 16));
#endif
  for (int i = 0; i < 3 * THREADS; i++)
    free (block[i]);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
