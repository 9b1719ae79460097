/* The summary a fatal signal writes shows what was collected only: a
   unit keeping bytesUsed globally and numAllocate per call gives the
   one global line, and site lines with numAllocate alone.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-stats=bytesUsed -fplugin-arg-memprof-per-call=numAllocate" } */
/* { dg-shouldfail "abort" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile kept[3];
volatile int three = 3;		/* no unrolling: one site */

int
main (void)
{
  for (int i = 0; i < three; i++)
    kept[i] = malloc (40);
  fflush (stdout);
  abort ();
}

/* { dg-output "memprof: pid \[0-9\]+ killed by signal 6 \\(SIGABRT\\); its counts at that moment:\nbytesUsed:120\n" } */
/* { dg-output "\[^\n\]*dying\\.c\\(18\\): \\\[numAllocate:3\\\]  malloc in main\n" } */
