/* MEMPROF's past_main=1 keeps the frames outside main: the stacks go on
   to libc's start-up and the executable's _start, as gdb's backtrace
   does after `set backtrace past-main on'.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,past_main=1,report=none,folded=out.folded" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

static __attribute__ ((noinline)) void
alloc_here (void)
{
  sink = malloc (64);
  free (sink);
  __asm__ volatile ("");
}

int
main (void)
{
  alloc_here ();
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.folded "^_start;\[^\n\]+;main;alloc_here 64$" } } */
