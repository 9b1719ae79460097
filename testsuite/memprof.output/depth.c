/* The default depth, 64 frames, takes a stack of 60 calls whole, to
   main; a stack of 100 calls is cut at 64 frames and put under one
   `(truncated)' root, in folded stacks and in the HTML page's flame
   graph (the JSON's frames), where the widest box at the top is it;
   the text report ends it with `(truncated)'.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,stacks=0,report=out.txt,folded=out.folded,json=out.json,html=out.html" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

/* N calls deep, then a block of SIZE bytes.  Not a tail call: each call
   is a frame.  */
__attribute__ ((noinline)) void
descend (int n, size_t size)
{
  if (n > 1)
    descend (n - 1, size);
  else
    sink = malloc (size);
  __asm__ volatile ("");
}

int
main (void)
{
  descend (60, 8000);
  free (sink);
  descend (100, 16000);
  free (sink);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.folded "^main(;descend){60} 8000$" } } */
/* { dg-final { scan-file out.folded "^\\(truncated\\)(;descend){64} 16000$" } } */
/* { dg-final { scan-file out.txt "\n    descend at \[^\n\]*depth.c:\[0-9\]+\n    main at \[^\n\]*depth.c:\[0-9\]+\n" } } */
/* { dg-final { scan-file out.txt "\n    descend at \[^\n\]*depth.c:\[0-9\]+\n    \\(truncated\\)\n" } } */
/* { dg-final { scan-file out.json "\"callstack_size\":64\}" } } */
/* { dg-final { scan-file out.json "^,?\{\"function\":\"\\(truncated\\)\",\"file\":null,\"line\":0,\"inlined\":false\}" } } */
/* { dg-final { scan-html out.html "^selftest: pass zoomed=\\(truncated\\) " } } */
