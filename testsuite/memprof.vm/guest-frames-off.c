/* guest-frames.c with MEMPROF's vm_frames=off: C frames only.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=0.05,sections=stacks,stacks=0,vm_frames=off" } */

#define EXPECTED(outer, interp) ((outer) < 0 && (interp) >= 0)
#include "guest-frames.c"

/* { dg-output "ok\n.*\n    interp\[^\n\]*\n    interp\[^\n\]*\n    interp\[^\n\]*\n    worker" } */
