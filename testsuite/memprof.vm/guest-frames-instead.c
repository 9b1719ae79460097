/* guest-frames.c with MEMPROF's vm_frames=instead: the procedures in
   place of the interpreter's activations.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=0.05,sections=stacks,stacks=0,vm_frames=instead" } */

#define EXPECTED(outer, interp) ((outer) >= 0 && (interp) < 0)
#include "guest-frames.c"

/* { dg-output "ok\n.*\n    inner at toy.scm:9\n    middle at toy.scm:5\n    outer at toy.scm:1\n    worker" } */
