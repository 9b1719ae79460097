/* An unwritable report path: one warning line naming it and why, then
   the report on stderr; the program's exit status is its own.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=/nonexistent/dir/r.txt" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile kept[7];	/* live at exit, not leaked */
volatile int n = 7;

int
main (void)
{
  for (int i = 0; i < n; i++)
    kept[i] = malloc (3);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\nmemprof: cannot write the report to '/nonexistent/dir/r\\.txt': No such file or directory; writing it to stderr\n" } */
/* { dg-output "==== memprof report, pid \[0-9\]+ ====\n" } */
/* { dg-output ".*\nnumAllocate:7\n.*\n\[^\n\]*unwritable-report\\.c\\(17\\): \\\[numAllocate:7, numAllocateOK:7, bytesAllocated:21\\\]  malloc in main\n" } */
/* { dg-output "==== end of memprof report ====\n$" } */
