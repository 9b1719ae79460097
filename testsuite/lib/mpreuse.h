/* mpreuse.h -- a young block freed by another thread than its own, and
   its address given out again: #include after gc.h and mptest.h.

   mpt_reuse (N) allocates a block of N bytes, has another thread free
   it with GC_free, and allocates another of N bytes, which it returns;
   *OLD gets the freed one's address.  For N of 64 words, Boehm's
   global free lists, which GC_free pushes on and GC_malloc pops from,
   make the new block the freed one.  */

#ifndef MPREUSE_H
#define MPREUSE_H

#include <pthread.h>

static void *volatile mpt_given;

static void *
mpt_free_given (void *arg)
{
  GC_FREE (mpt_given);
  return arg;
}

static __attribute__ ((noinline, unused)) void *
mpt_reuse (size_t n, void **old)
{
  *old = GC_MALLOC (n);
  mpt_given = *old;
  pthread_t t;
  CHECK_EQ (pthread_create (&t, NULL, mpt_free_given, NULL), 0);
  pthread_join (t, NULL);
  mpt_given = NULL;
  return GC_MALLOC (n);
}

#endif
