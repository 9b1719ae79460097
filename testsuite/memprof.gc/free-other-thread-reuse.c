/* A young block freed with GC_free by another thread than its own
   leaves its entry in its thread's log; when the address is handed out
   again before the next collection, the two entries share one mark bit,
   and the collection must count the address once (generations.c, the
   deduplication at the addresses in `unfound').  Blocks of 64 words
   come from Boehm's global free lists, which GC_free pushes on and
   GC_malloc pops from, so the freed address is the next one given
   out.  Each round:
   one block promoted, exactly its words.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#define GC_THREADS
#include <gc.h>
#include <pthread.h>
#include "../lib/mptest.h"
#include "../lib/mpreuse.h"

#define SIZE 512                /* 64 words */
#define ROUNDS 10

void *volatile kept;

int
main (void)
{
  GC_INIT ();
  int reused = 0;
  for (int round = 0; round < ROUNDS; round++)
    {
      kept = NULL;
      collect ();
      double p0 = mpt_promoted_words ();
      void *old;
      kept = mpt_reuse (SIZE, &old);
      reused += kept == old;
      collect ();
      CHECK_EQ (mpt_promoted_words () - p0, W (SIZE));
    }
  /* Otherwise the test would test nothing.  */
  CHECK_EQ (reused, ROUNDS);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
