/* A program that never used the GC heap gets one line in place of the
   stat record, whose seventeen lines would all be zero; one that did
   keeps the record (formats.c).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=out.txt" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

int
main (void)
{
  for (int i = 0; i < 100; i++)
    {
      sink = malloc (100);
      free (sink);
    }
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.txt "^==== memprof report, pid \[0-9\]+ ====\n== stat record \\(v=0x400\\): the program never used the GC heap ==\n== allocator statistics ==\nnumAllocate:100\n" } } */
/* { dg-final { scan-file-not out.txt "^(allocated|minor|major|promoted)_words:" } } */
