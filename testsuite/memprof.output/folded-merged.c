/* Folded stacks that differ only in their positions, two calls in main,
   fold to one line, with the bytes of both: 10 blocks of 80 bytes and
   10 of 160, at sampling rate 1 (exact).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none,folded=out.folded" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

int
main (void)
{
  for (int i = 0; i < 10; i++)
    free (sink = malloc (80));
  for (int i = 0; i < 10; i++)
    free (sink = malloc (160));
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.folded "\\Amain 2400\n\\Z" } } */
