/* MEMPROF's collector keys by OCaml's letters, with k, M and G
   suffixes: mp_get shows each, and init_heap_size grew the heap.  No
   warning.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "s=64k,i=20,o=120,O=300,l=1M,a=1,w=10,M=50,m=60,n=8k,v=0x20,h=2M,report=none" } */

#include <gc.h>
#include "../lib/mptest.h"

int
main (void)
{
  struct mp_control c;
  mp_get (&c);
  CHECK_EQ (c.minor_heap_size, 64 << 10);
  CHECK_EQ (c.major_heap_increment, 20);
  CHECK_EQ (c.space_overhead, 120);
  CHECK_EQ (c.max_overhead, 300);
  CHECK_EQ (c.stack_limit, 1 << 20);
  CHECK_EQ (c.allocation_policy, 1);
  CHECK_EQ (c.window_size, 10);
  CHECK_EQ (c.custom_major_ratio, 50);
  CHECK_EQ (c.custom_minor_ratio, 60);
  CHECK_EQ (c.custom_minor_max_size, 8 << 10);
  CHECK_EQ (c.verbose, 0x20);
  CHECK_EQ (c.incremental, 0);
  GC_INIT ();
  GC_MALLOC (8);                /* Boehm starts */
  CHECK (GC_get_heap_size () >= (size_t) 2 << 20 << 3);
  CHECK_EQ (GC_get_free_space_divisor (), 2);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
