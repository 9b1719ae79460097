/* A static executable (-static) samples: its call stacks come from
   libc.a's backtrace, over libgcc's unwinder linked in, since a shared
   libunwind opened there would bring a second, shared libc and crash at
   the first sample.  Linked with libmemprof.a alone, not by memprof-gcc's
   -static recipe (which links libdw in), it cannot load libdw either:
   one warning says why, and the report goes on with the frames as
   addresses (dynlibs.c).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g -static" } */
/* { dg-skip-if "ASan's runtime is not linked statically" { asan } } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt" } */
/* The linker's warning about the runtime's dlopen of the shared libc
   (dynlibs.c's mp_libc_handle), which finds none here, as it should;
   the linker names the function that calls it first.  */
/* { dg-prune-output "in function .\[a-z_\]+.:" } */
/* { dg-prune-output "warning: Using .dlopen. in statically linked" } */

#include <gc.h>
#include <stdio.h>

void *volatile sink;

static __attribute__ ((noinline)) void
make (int n)
{
  for (int i = 0; i < n; i++)
    sink = GC_MALLOC (48);
}

int
main (void)
{
  GC_INIT ();
  make (1000);
  printf ("ok\n");
  return 0;
}

/* { dg-output "^ok\nmemprof: cannot load libdw \\(a static executable cannot load it: link with memprof-gcc -static, which links it in\\); call stacks show addresses\n$" } */
/* { dg-final { scan-file out.txt "== call stacks by estimated bytes allocated: 1 of 1 ==\n48000 bytes, 6000 samples, \[^\n\]*\n(    0x\[0-9a-f\]+\n){2,}" } } */
