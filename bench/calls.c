/* calls.c -- N allocations, for bench/calls.sh to count the instructions
   memprof spends per call: malloc and free of 32 bytes, or (with a
   second argument) GC_MALLOC of 32 bytes.
   Usage: calls N [gc]  */

#include <stdlib.h>
#include <gc.h>

void *volatile sink;

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 100000;
  int gc = argc > 2;
  if (gc)
    GC_INIT ();
  for (long i = 0; i < n; i++)
    if (gc)
      sink = GC_MALLOC (32);
    else
      {
        sink = malloc (32);
        free (sink);
      }
  return 0;
}
