/* The profile's records of many stacks, some of them longer than a
   chunk of records first holds (profile.c): every stack gets its
   record, whole, and the report walks them all.  At rate 1, each depth
   of the recursion below is one stack of its own; the deepest, of 900
   frames, allocates most, and first: its record is longer than the
   first chunk.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,callstack_size=1024,stacks=1,sections=stacks+functions,report=deep-stacks.txt" } */

#include "../lib/mptest.h"

#define DEEPEST 900

void *volatile sink;
volatile int after;

/* DEPTH frames of its own, then an allocation of BYTES.  Not a tail
   call: each level keeps its frame.  */
static __attribute__ ((noipa)) void
descend (int depth, size_t bytes)
{
  if (depth > 1)
    descend (depth - 1, bytes);
  else
    {
      sink = malloc (bytes);
      free (sink);
    }
  after++;
}

int
main (void)
{
  descend (DEEPEST, 64);
  for (int d = 1; d < DEEPEST; d++)
    descend (d, 8);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
/* { dg-final { scan-file deep-stacks.txt "\ndescend: 907 samples\n" } } */
/* { dg-final { scan-file deep-stacks.txt "== call stacks by estimated bytes allocated: 1 of 900 ==\n64 bytes, 8 samples, not young\n(    descend at \[^\n\]*deep-stacks.c:\[0-9\]+\n)+    main at " } } */
