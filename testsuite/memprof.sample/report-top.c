/* The text report's top call stacks are those a stable sort would put
   first (profile.c picks them without sorting the rest): by bytes
   allocated, and by bytes live, where stacks of equal live bytes keep
   their order by bytes allocated.  Six stacks leave nothing live; the
   two of them shown after the live one must be the two that allocated
   most.  Exact at rate 1.  "ok" goes out without stdio, whose buffer
   would be a live stack of its own.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,callstack_size=2,stacks=3,report=report-top.txt" } */

#include <unistd.h>
#include "../lib/mptest.h"

void *volatile sink;
void *kept;

/* A function that allocates and frees N blocks of 80 bytes.  */
#define CHURN(name, n)                          \
  static __attribute__ ((noinline)) void        \
  name (void)                                   \
  {                                             \
    for (int i = 0; i < (n); i++)               \
      {                                         \
        sink = malloc (80);                     \
        free (sink);                            \
      }                                         \
  }

CHURN (f1, 10)
CHURN (f5, 50)
CHURN (f3, 30)
CHURN (f6, 60)
CHURN (f2, 20)
CHURN (f4, 40)

static __attribute__ ((noinline)) void
keep (void)
{
  kept = malloc (1 << 20);
}

int
main (void)
{
  f1 ();
  f5 ();
  keep ();
  f3 ();
  f6 ();
  f2 ();
  f4 ();
  if (write (1, "ok\n", 3) != 3)
    return 1;
  return 0;
}

/* { dg-output "(^|\n)ok\n" } */
/* { dg-final { scan-file report-top.txt "== call stacks by estimated bytes allocated: 3 of \[0-9\]+ ==\n1048576 bytes, 131072 samples, not young\n    keep at \[^\n\]*\n    main at \[^\n\]*\n4800 bytes, 600 samples, not young\n    f6 at \[^\n\]*\n    main at \[^\n\]*\n4000 bytes, 500 samples, not young\n    f5 at " } } */
/* { dg-final { scan-file report-top.txt "== call stacks by estimated bytes live: 3 of \[0-9\]+ ==\n1048576 bytes, 131072 samples, not young\n    keep at \[^\n\]*\n    main at \[^\n\]*\n0 bytes, 600 samples, not young\n    f6 at \[^\n\]*\n    main at \[^\n\]*\n0 bytes, 500 samples, not young\n    f5 at " } } */
