/* report=none holds when the program dies too: abort leaves no summary
   of the counts (runtime/fatal.c; dying.c has the summary), and the
   program still fails.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-shouldfail "abort" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

int
main (void)
{
  sink = malloc (10);
  puts ("ok");
  fflush (stdout);
  abort ();
}

/* { dg-output "^ok\n$" } */
