/* fork-boehm-first.c for a program that forks by hand, with Boehm
   started before the runtime: the program holds Boehm's lock when the
   runtime's fork handler runs, which must not ask for it, nor wait for a
   lock that mp_finalise holds while calling Boehm.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -Wno-prio-ctor-dtor" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#define BY_HAND
#include "fork-boehm-first.c"
