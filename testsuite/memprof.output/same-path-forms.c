/* Two outputs named by one path, which would replace each other's file:
   the later key of report, eventlog, pprof, folded and json is dropped
   with one warning, and the first form is written whole (json and html
   may share one: same-path.c).  So is one of two paths that a forked
   child would expand to one file: PATH.PID for PATH, and PATH.%p.
   same-path-resolved.c includes this file.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=one.txt,json=one.txt,eventlog=two.json,folded=two.json,pprof=p.out,html=p.out.%p" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

int
main (void)
{
  for (int i = 1; i <= 3; i++)
    free (sink = calloc ((size_t) i, 8));
  puts ("ok");
  return 0;
}

/* { dg-output "^memprof: MEMPROF: eventlog and folded name the same file 'two.json': no folded written\n" } */
/* { dg-output "memprof: MEMPROF: report and json name the same file 'one.txt': no json written\n" } */
/* { dg-output "memprof: MEMPROF: pprof and html name the same file 'p.out.%p': no html written\nok\n$" } */
/* { dg-final { scan-file one.txt "\\A==== memprof report, pid \[0-9\]+ ====\n" } } */
/* { dg-final { scan-file one.txt "==== end of memprof report ====\n\\Z" } } */
/* { dg-final { scan-file two.json "\\A\\\[" } } */
