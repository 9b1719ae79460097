/* MEMPROF's keys by their long names: the collector's (mp_get shows
   them), the sampling keys and the report's (the report shows them:
   only the stat record and one site).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "minor_heap_size=1M,major_heap_increment=2k,space_overhead=40,max_overhead=1000000,stack_limit=2M,allocation_policy=0,window_size=50,custom_major_ratio=1,custom_minor_ratio=1000000,custom_minor_max_size=0,verbose=0x400,incremental=1,init_heap_size=1M,sampling_rate=1e-3,callstack_size=1k,sites=1,stacks=2,sections=stat+sites,report=stderr" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

int
main (void)
{
  struct mp_control c;
  mp_get (&c);
  CHECK_EQ (c.minor_heap_size, 1 << 20);
  CHECK_EQ (c.major_heap_increment, 2048);
  CHECK_EQ (c.space_overhead, 40);
  CHECK_EQ (c.max_overhead, 1000000);
  CHECK_EQ (c.stack_limit, 2 << 20);
  CHECK_EQ (c.allocation_policy, 0);
  CHECK_EQ (c.window_size, 50);
  CHECK_EQ (c.custom_major_ratio, 1);
  CHECK_EQ (c.custom_minor_ratio, 1000000);
  CHECK_EQ (c.custom_minor_max_size, 0);
  CHECK_EQ (c.verbose, 0x400);
  CHECK_EQ (c.incremental, 1);
  GC_INIT ();
  for (int i = 0; i < 10; i++)
    sink = GC_MALLOC (8);
  for (int i = 0; i < 10; i++)
    sink = GC_MALLOC (16);
  CHECK (GC_is_incremental_mode ());
  CHECK_EQ (GC_get_free_space_divisor (), 5);
  CHECK (GC_get_heap_size () >= (size_t) 1 << 20 << 3);
  struct mp_stat st;
  mp_quick_stat (&st);
  CHECK (st.heap_chunks >= 2);  /* the initial heap, and its growth */
  return mpt_done ();
}

/* { dg-output "^ok\n==== memprof report, pid \[0-9\]+ ====\n== stat record \\(v=0x400\\) ==\n" } */
/* { dg-output "(\[^=\]\[^\n\]*\n)*== allocation sites: 1 of 2, largest first ==\n" } */
/* { dg-output "\[^\n\]*keys-long\\.c\\(34\\): \\\[numAllocate:10, numAllocateOK:10, bytesAllocated:160\\\]  GC_malloc in main\n" } */
/* { dg-output "==== end of memprof report ====\n$" } */
