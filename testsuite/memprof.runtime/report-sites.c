/* MEMPROF=sites=1 lists only the largest site; v=0 drops the stat record
   section.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sites=1,v=0" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile kept[30];	/* live at exit, not leaked */
volatile int n = 10;

int
main (void)
{
  for (int i = 0; i < n; i++)
    kept[i] = malloc (100);
  for (int i = 0; i < n; i++)
    kept[10 + i] = malloc (200);
  for (int i = 0; i < n; i++)
    kept[20 + i] = malloc (50);
  puts ("ok");
  return 0;
}

/* { dg-output "ok\n==== memprof report, pid \[0-9\]+ ====\n== allocator statistics ==\nnumAllocate:30\n" } */
/* { dg-output ".*\n== allocation sites: 1 of 3, largest first ==\n\[^\n\]*report-sites\\.c\\(19\\): \\\[numAllocate:10, numAllocateOK:10, bytesAllocated:2000\\\]  malloc in main\n==== end of memprof report ====\n$" } */
