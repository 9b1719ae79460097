/* Bad MEMPROF items: one warning line each, naming the item (long ones
   cut at 64 characters), in their order; empty items are nothing; the
   good items among them still apply (the last of a key counts) and the
   others keep their defaults.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "s=100,s=1K,s=k,s=1kk,w=7,,o=0,w=51,a=3,v=0x2000,incremental=2,O=-1,i=99999999999G,n=,k,=5,sections=stat+bogus,sections=,sampling_rate=2,sampling_rate=1e-3x,callstack_size=2k,h= 1,window_size=8,,,sites=11111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx=1,s=8k,report=none" } */

#include "../lib/mptest.h"

int
main (void)
{
  struct mp_control c;
  mp_get (&c);
  CHECK_EQ (c.minor_heap_size, 8192);
  CHECK_EQ (c.window_size, 8);
  CHECK_EQ (c.major_heap_increment, 15);
  CHECK_EQ (c.verbose, 0x400);
  CHECK_EQ (c.max_overhead, 1000000);
  CHECK_EQ (c.allocation_policy, 2);
  CHECK_EQ (c.custom_minor_max_size, 70000);
  CHECK_EQ (c.incremental, 0);
  return mpt_done ();
}

/* { dg-output "^memprof: MEMPROF: bad value '100' for 's' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '1K' for 's' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value 'k' for 's' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '1kk' for 's' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '0' for 'o' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '51' for 'w' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '3' for 'a' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '0x2000' for 'v' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '2' for 'incremental' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '-1' for 'O' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '99999999999G' for 'i' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '' for 'n' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: 'k' has no value \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: unknown key '' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value 'stat\\+bogus' for 'sections' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '' for 'sections' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '2' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '1e-3x' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '2k' for 'callstack_size' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value ' 1' for 'h' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '1{64}\\.\\.\\.' for 'sites' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: unknown key 'x{64}\\.\\.\\.' \\(ignored\\)\n" } */
/* { dg-output "ok\n$" } */
