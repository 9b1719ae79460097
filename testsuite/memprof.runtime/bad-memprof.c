/* Bad MEMPROF items each get a one-line warning naming them; the valid
   items still apply (sites=2: two sites listed), and the program runs.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "foo=1,sites=abc,v,,sites=2,report=,v=-1,sites=12x" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile kept[15];	/* live at exit, not leaked */
volatile int n = 5;

int
main (void)
{
  for (int i = 0; i < n; i++)
    kept[i] = malloc (100);
  for (int i = 0; i < n; i++)
    kept[5 + i] = malloc (200);
  for (int i = 0; i < n; i++)
    kept[10 + i] = malloc (300);
  puts ("ok");
  return 0;
}

/* The warnings, in the order of the items, then the program.  */
/* { dg-output "^memprof: MEMPROF: unknown key 'foo' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value 'abc' for 'sites' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: 'v' has no value \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '' for 'report' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '-1' for 'v' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '12x' for 'sites' \\(ignored\\)\n" } */
/* { dg-output "ok\n" } */
/* v stays 0x400 (the default): the stat record is there; sites=2.  */
/* { dg-output "==== memprof report, pid \[0-9\]+ ====\n== stat record \\(v=0x400\\): the program never used the GC heap ==\n" } */
/* { dg-output ".*\n== allocation sites: 2 of 3, largest first ==\n" } */
/* { dg-output "\[^\n\]*bad-memprof\\.c\\(21\\): \\\[numAllocate:5, numAllocateOK:5, bytesAllocated:1500\\\]  malloc in main\n" } */
/* { dg-output "\[^\n\]*bad-memprof\\.c\\(19\\): \\\[numAllocate:5, numAllocateOK:5, bytesAllocated:1000\\\]  malloc in main\n" } */
/* { dg-output "==== end of memprof report ====\n$" } */
