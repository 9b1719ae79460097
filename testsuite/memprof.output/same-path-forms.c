/* Two outputs named by one path, which would replace each other's file:
   the later key of report, eventlog, pprof, folded and json is dropped
   with one warning, and the first form is written whole (json and html
   may share one: same-path.c).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=one.txt,json=one.txt,eventlog=two.json,folded=two.json" } */

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
/* { dg-output "memprof: MEMPROF: report and json name the same file 'one.txt': no json written\nok\n$" } */
/* { dg-final { scan-file one.txt "\\A==== memprof report, pid \[0-9\]+ ====\n" } } */
/* { dg-final { scan-file one.txt "==== end of memprof report ====\n\\Z" } } */
/* { dg-final { scan-file two.json "\\A\\\[" } } */
