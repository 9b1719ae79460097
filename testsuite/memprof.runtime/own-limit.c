/* own_limit bounds the sampling tables.  At rate 1 every block is
   sampled and followed while it lives, so 64 KiB of tables fill up long
   before the 20000 live blocks here: one warning, then sampling stops
   for good (the tracker hears of no block after it, even one started
   later) while the counts stay exact and the program runs on.  The
   report gives the figures.  A bad own_limit is one warning, and the
   next one applies.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "own_limit=12q,sampling_rate=1,own_limit=64k,sections=alloc" } */

#include <stdio.h>
#include <stdlib.h>
#include "../lib/mptest.h"

#define N 20000

static void *blocks[N];
static unsigned line_live, line_after;
static long heard;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) a;
  (void) data;
  heard++;
  return &heard;
}

int
main (void)
{
  struct mp_tracker tr = { .alloc_minor = on_alloc, .alloc_major = on_alloc };
  mpt_start (1, tr);
  for (int i = 0; i < N; i++)
    {
      blocks[i] = malloc (16); line_live = __LINE__;
    }
  long stopped_at = heard;
  CHECK (stopped_at > 0 && stopped_at < N);
  CHECK_EQ (mp_memprof_stop (), 0);
  mpt_start (1, tr);
  for (int i = 0; i < N; i++)
    {
      free (blocks[i]);
      blocks[i] = malloc (24); line_after = __LINE__;
    }
  CHECK_EQ (heard, stopped_at);
  for (int i = 0; i < N; i++)
    free (blocks[i]);
  CHECK_EQ (SITE (line_live).s.numAllocate, N);
  CHECK_EQ (SITE (line_after).s.numAllocate, N);
  CHECK_EQ (SITE (line_after).s.bytesAllocated, 24 * N);
  return mpt_done ();
}

/* { dg-output "^memprof: MEMPROF: bad value '12q' for 'own_limit' \\(ignored\\)\n" } */
/* { dg-output "memprof: own_limit reached for \[0-9\]+ more bytes of sampling tables \\(\[0-9\]+ in use\\); sampling stops, counting goes on\n" } */
/* { dg-output "ok\n==== memprof report, pid \[0-9\]+ ====\n== allocator statistics ==\n" } */
/* { dg-output ".*\n== memprof's own memory ==\nsampling tables: \[0-9\]+ bytes \\(peak \[0-9\]+, own_limit 65536\\)\n" } */
/* { dg-output "counters: \[1-9\]\[0-9\]* bytes in 1 thread records\n" } */
/* { dg-output "foreign-site caches: \[0-9\]+ bytes in \[0-9\]+ thread caches\n" } */
/* { dg-output "sampling stopped at \[0-9.\]+ s for want of memory: the profiles hold the samples taken before\n" } */
/* { dg-output "==== end of memprof report ====\n$" } */
