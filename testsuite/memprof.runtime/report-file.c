/* MEMPROF=report=PATH writes the exit report to PATH (relative to the
   current directory) and not to stderr.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=report-file.txt" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;
volatile int n = 42;

int
main (void)
{
  for (int i = 0; i < n; i++)
    {
      sink = malloc (10);
      free (sink);
    }
  puts ("ok");
  return 0;
}

/* Nothing but the program's own output: no report on stderr.  */
/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file report-file.txt "^==== memprof report, pid \[0-9\]+ ====$" } } */
/* { dg-final { scan-file report-file.txt "^== stat record \\(v=0x400\\): the program never used the GC heap ==$" } } */
/* { dg-final { scan-file report-file.txt "^numAllocate:42$" } } */
/* { dg-final { scan-file report-file.txt "^numDeallocate:42$" } } */
/* { dg-final { scan-file report-file.txt "^bytesAllocated:420$" } } */
/* { dg-final { scan-file report-file.txt "report-file\\.c\\(18\\): \\\[numAllocate:42, numAllocateOK:42, bytesAllocated:420\\\]  malloc in main$" } } */
/* { dg-final { scan-file report-file.txt "report-file\\.c\\(19\\): \\\[numDeallocate:42, bytesContracted:420\\\]  free in main$" } } */
/* { dg-final { scan-file report-file.txt "^==== end of memprof report ====$" } } */
