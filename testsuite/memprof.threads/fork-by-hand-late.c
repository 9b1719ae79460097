/* fork-boehm-first.c for a program that forks by hand, with Boehm
   started in main, after the runtime: the runtime's fork handler runs
   with Boehm's lock held by the program, and must not wait for a lock
   that mp_finalise holds while calling Boehm.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#define BY_HAND
#define BOEHM_IN_MAIN
#include "fork-boehm-first.c"
