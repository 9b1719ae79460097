/* The report's profile with 4 threads at rate 1: each sample counted
   with its block's record, and each free's death, under one lock
   (profile.c and tracked.c share it), exactly: the blocks allocated,
   their samples, and the live bytes at exit, some of them freed by
   another thread than their own.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,callstack_size=1,stacks=1,report=profile-live-threads.txt" } */
/* { dg-timeout 120 } */

#include <pthread.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 20000
#define KEPT 1000

static void *kept[THREADS][KEPT];

/* N blocks of 16 bytes (2 words: 2 samples each), the last KEPT of
   them kept.  */
static __attribute__ ((noinline)) void
churn (void **keep)
{
  for (int i = 0; i < N; i++)
    {
      void *p = malloc (16);
      if (i >= N - KEPT)
        keep[i - (N - KEPT)] = p;
      else
        free (p);
    }
}

static void *
run (void *arg)
{
  churn (arg);
  return NULL;
}

int
main (void)
{
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, run, kept[i]), 0);
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_join (t[i], NULL), 0);
  /* Half of what each thread kept, freed here: 4 * 500 blocks live,
     more than stdout's buffer.  */
  for (int i = 0; i < THREADS; i++)
    for (int k = 0; k < KEPT / 2; k++)
      free (kept[i][k]);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
/* { dg-final { scan-file profile-live-threads.txt "== call stacks by estimated bytes allocated: 1 of \[0-9\]+ ==\n1280000 bytes, 160000 samples, not young\n    churn at \[^\n\]*profile-live-threads.c:\[0-9\]+\n" } } */
/* { dg-final { scan-file profile-live-threads.txt "== call stacks by estimated bytes live: 1 of \[0-9\]+ ==\n32000 bytes, 160000 samples, not young\n    churn at \[^\n\]*profile-live-threads.c:\[0-9\]+\n" } } */
