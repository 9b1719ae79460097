/* A program that allocates nothing (its one site never runs: without
   any site, nothing would pull the runtime out of libmemprof.a): every
   form is still written and well formed, with zero totals; the HTML page
   renders with empty graphs and tables.  The folded stacks are an empty
   file: written, with no line.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt,pprof=out.pb.gz,json=out.json,html=out.html,folded=out.folded" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

int
main (int argc, char **argv)
{
  (void) argv;
  if (argc > 1000)
    sink = malloc (1);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.txt "^numAllocate:0$" } } */
/* { dg-final { scan-file out.txt "^== allocation sites: 0 of 0, largest first ==\n== space profiles by function \\(exact: sampling rate 1\\): 0 of 0, largest first ==\n== call stacks by estimated bytes allocated: 0 of 0 ==\n== call stacks by estimated bytes live: 0 of 0 ==\n==== end of memprof report ====$" } } */
/* { dg-final { scan-file out.json "\},\"sites\":\\\[\\\],\"functions\":\\\[\\\],\"frames\":\\\[\\\],\"stacks\":\\\[\\\],\"timeline\":\\\[\\\]\}$" } } */
/* { dg-final { scan-file out.json "\"sampling\":\{\"rate\":1,\"rate_min\":0,\"rate_max\":0,\"exact\":false," } } */
/* { dg-final { scan-file-empty out.folded } } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^Samples:\nalloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes\\\[dflt\\\]\nLocations\n" } } */
/* { dg-final { scan-html out.html "^selftest: pass zoomed=- boxes=0 functions=0 sites=0 screenshot=\[1-9\]\[0-9\]*$" } } */
/* { dg-final { scan-html-json out.html out.json } } */
