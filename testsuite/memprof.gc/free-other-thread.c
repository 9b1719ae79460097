/* Young blocks of MP_MAX_YOUNG_WOSIZE words have a heap block of their
   own; freed with GC_free by another thread than their own, the heap
   block goes back to Boehm at once.  mp_stat and the next collection
   must not ask Boehm about them (that crashed), nor count them live or
   promoted.  Repeated, as the crash needed Boehm to merge the freed
   heap blocks.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#define GC_THREADS
#include <gc.h>
#include <pthread.h>
#include "../lib/mptest.h"

#define N 64

void *blocks[N];

static void *
work (void *arg)
{
  for (int i = 0; i < N; i++)
    blocks[i] = GC_MALLOC (2048);       /* 256 words */
  return arg;
}

int
main (void)
{
  GC_INIT ();
  GC_MALLOC (16);
  for (int round = 0; round < 20; round++)
    {
      mp_major ();
      struct mp_stat s0, s1, s2;
      mp_stat (&s0);
      pthread_t t;
      CHECK_EQ (pthread_create (&t, NULL, work, NULL), 0);
      pthread_join (t, NULL);
      for (int i = 0; i < N; i++)
        GC_FREE (blocks[i]);
      mp_stat (&s1);
      CHECK (s1.live_blocks <= s0.live_blocks + 16);
      mp_minor ();
      mp_stat (&s2);
      CHECK_EQ (s2.promoted_words - s1.promoted_words, 0);
    }
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
