/* The report's own sampling, at rate 1 where it is exact: the call
   stacks by bytes allocated and by bytes live at exit, with their
   promoted fractions, whatever tracker the program installs (here one
   that keeps nothing).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,callstack_size=3,stacks=2,report=report-stacks.txt" } */

#include <gc.h>
#include "../lib/mptest.h"

void *keep[100];
void *volatile sink;

static void *
ignore (const struct mp_allocation *a, void *data)
{
  (void) a;
  (void) data;
  return NULL;
}

static __attribute__ ((noinline)) void
keep_alive (void)
{
  for (int i = 0; i < 100; i++)
    keep[i] = GC_MALLOC (64);
}

static __attribute__ ((noinline)) void
churn (void)
{
  for (int i = 0; i < 1000; i++)
    {
      sink = malloc (80);
      free (sink);
    }
}

int
main (void)
{
  GC_INIT ();
  keep_alive ();
  collect ();
  mpt_start (0.5, (struct mp_tracker) { .alloc_minor = ignore });
  CHECK_EQ (mp_memprof_stop (), 0);     /* back to MEMPROF's rate */
  churn ();
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
/* { dg-final { scan-file report-stacks.txt "== call stacks by estimated bytes allocated: 2 of 2 ==\n80000 bytes, 10000 samples, not young\n    churn at \[^\n\]*report-stacks.c:\[0-9\]+\n    main at \[^\n\]*\n6400 bytes, 800 samples, 100.0% promoted\n    keep_alive at \[^\n\]*report-stacks.c:\[0-9\]+\n    main at " } } */
/* { dg-final { scan-file report-stacks.txt "== call stacks by estimated bytes live: 2 of 2 ==\n6400 bytes, 800 samples, 100.0% promoted\n    keep_alive at \[^\n\]*\n    main at \[^\n\]*\n0 bytes, 10000 samples, not young\n    churn at " } } */
