/* free-other-thread-reuse.c with many blocks at once: another thread
   frees COUNT young blocks of this one, whose addresses are handed out
   again before the next collection.  generations.c notes each address
   its freeing thread did not find, and the decision keeps one entry for
   each; past UNFOUND_MAX (64) of them it keeps one for every address.
   Both ways, the blocks live at the collection are promoted, exactly
   their words.  Boehm is kept from collecting by itself within a
   round, whose 600 blocks would otherwise let it at Boehm's default
   pace.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#define GC_THREADS
#include <gc.h>
#include <pthread.h>
#include "../lib/mptest.h"

#define SIZE 512                /* 64 words */
#define MAX 300

static void *volatile given[MAX];
static void *volatile kept[MAX];
static int count;

static void *
free_given (void *arg)
{
  for (int i = 0; i < count; i++)
    GC_FREE (given[i]);
  return arg;
}

int
main (void)
{
  static const int counts[] = { 3, 40, 64, 65, MAX };
  GC_INIT ();
  for (unsigned r = 0; r < sizeof counts / sizeof counts[0]; r++)
    {
      count = counts[r];
      for (int i = 0; i < MAX; i++)
        kept[i] = NULL;
      collect ();
      double p0 = mpt_promoted_words ();
      GC_disable ();
      for (int i = 0; i < count; i++)
        given[i] = GC_MALLOC (SIZE);
      pthread_t t;
      CHECK_EQ (pthread_create (&t, NULL, free_given, NULL), 0);
      pthread_join (t, NULL);
      int reused = 0;
      for (int i = 0; i < count; i++)
        {
          kept[i] = GC_MALLOC (SIZE);
          for (int j = 0; j < count; j++)
            reused += kept[i] == given[j];
        }
      for (int i = 0; i < count; i++)
        given[i] = NULL;
      GC_enable ();
      collect ();
      CHECK_EQ (mpt_promoted_words () - p0, count * W (SIZE));
      /* Otherwise the round would test nothing.  */
      CHECK (reused > 0);
    }
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
