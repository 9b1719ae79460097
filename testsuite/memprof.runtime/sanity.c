/* The harness compiles, links and runs a plain malloc program with the
   plugin and the runtime, and the runtime prints its report at exit.  */
/* { dg-do run } */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *volatile sink;   /* keeps -O2 from deleting the malloc/free pair */

int
main (void)
{
  for (int i = 0; i < 100; i++)
    {
      sink = malloc (16 + i);
      memset (sink, 'x', 16);
      free (sink);
    }
  puts ("sanity ok");
  return 0;
}

/* { dg-output "sanity ok.*memprof report.*numAllocate:100\n" } */
