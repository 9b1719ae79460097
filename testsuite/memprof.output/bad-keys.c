/* Bad values of the output keys: an empty path, a count that is not a
   number, an unknown section.  Each gets one warning line naming it; the
   good items still apply (json= is written, report=none holds).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=none,pprof=,folded=,html=,functions=ten,sections=functions+bogus,json=good.json" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

int
main (void)
{
  sink = malloc (8);
  free (sink);
  puts ("ok");
  return 0;
}

/* { dg-output "^memprof: MEMPROF: bad value '' for 'pprof' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '' for 'folded' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '' for 'html' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value 'ten' for 'functions' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value 'functions\\+bogus' for 'sections' \\(ignored\\)\nok\n$" } */
/* { dg-final { scan-file good.json "\"allocator\":\{\"numAllocate\":1," } } */
