/* minor_heap_size is per thread (as OCaml 5's minor heap is per domain)
   and any collection starts every thread's count again.  Two threads
   take turns allocating 3 / 4 of the budget each: the minor collections
   come exactly where that rule puts them, which a budget shared by the
   threads would not.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "h=16M,s=64k" } */

#define GC_THREADS
#include <gc.h>
#include <pthread.h>
#include "../lib/mptest.h"

#define BUDGET 65536
#define TURN_BLOCKS (BUDGET * 3 / 4 / 16)       /* of 16 words */
#define TURNS 40

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int turn;                /* whose turn: turn % 2 */
static long minors_seen[TURNS]; /* minor collections after each turn */

static long
minors (void)
{
  struct mp_stat s;
  mp_quick_stat (&s);
  return s.minor_collections;
}

static void *
work (void *arg)
{
  int me = (int) (intptr_t) arg;
  for (;;)
    {
      pthread_mutex_lock (&lock);
      while (turn < TURNS && turn % 2 != me)
        pthread_cond_wait (&changed, &lock);
      pthread_mutex_unlock (&lock);
      if (turn >= TURNS)
        return NULL;
      for (int i = 0; i < TURN_BLOCKS; i++)
        GC_MALLOC (128);
      pthread_mutex_lock (&lock);
      minors_seen[turn++] = minors ();
      pthread_cond_broadcast (&changed);
      pthread_mutex_unlock (&lock);
    }
}

int
main (void)
{
  GC_INIT ();
  struct mp_control c;
  mp_get (&c);
  CHECK_EQ (c.minor_heap_size, BUDGET);
  GC_MALLOC (16);
  mp_major ();
  long m0 = minors ();
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, work, (void *) (intptr_t) i), 0);
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);

  /* The rule, played out.  */
  long words[2] = { 0, 0 }, expected = 0;
  for (int n = 0; n < TURNS; n++)
    {
      for (int i = 0; i < TURN_BLOCKS; i++)
        if ((words[n % 2] += 16) >= BUDGET)
          {
            expected++;
            words[0] = words[1] = 0;
          }
      CHECK_EQ (minors_seen[n] - m0, expected);
    }
  CHECK (expected < TURNS * 3 / 4);     /* a shared budget: 30 */
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
