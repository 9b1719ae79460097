/* own_limit so small that a sampled block gets no entry to follow it
   with (tracked.c): the block is then not counted in the profile
   either, which would hold it live for good, its free unseen.  At
   rate 1 the profile's live bytes are exactly those of the blocks it
   counted and the program has not freed: the first FEW, here.  The
   blocks come from one call, so that the profile has one stack for
   them.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "interpose=0,sampling_rate=1,own_limit=64k,callstack_size=1,stacks=1,report=own-limit-live.txt" } */

#include <stdlib.h>
#include "../lib/mptest.h"

#define N 20000
#define FEW 5

static void *volatile blocks[N];
static unsigned line_block;

static __attribute__ ((noinline)) void *
block (void)
{
  void *p = malloc (16); line_block = __LINE__;
  return p;
}

int
main (void)
{
  for (int i = 0; i < N; i++)
    blocks[i] = block ();
  for (int i = FEW; i < N; i++)
    free (blocks[i]);
  CHECK_ALLOCS (line_block, N, 16 * N);
  return mpt_done ();
}

/* { dg-output "memprof: own_limit reached for \[0-9\]+ more bytes of sampling tables \\(\[0-9\]+ in use\\); sampling stops, counting goes on\n" } */
/* { dg-output "ok\n" } */
/* { dg-final { scan-file own-limit-live.txt "\nsampling stopped at \[0-9.\]+ s for want of memory: the profiles hold the samples taken before\n" } } */
/* { dg-final { scan-file own-limit-live.txt "== call stacks by estimated bytes live: 1 of 1 ==\n80 bytes, \[0-9\]+ samples, not young\n    block at \[^\n\]*own-limit-live.c:\[0-9\]+\n" } } */
