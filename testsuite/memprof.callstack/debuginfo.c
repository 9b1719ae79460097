/* The program of debuginfo.exp: an allocation called back through the
   module debuginfo-lib.c.  */

#include <stdio.h>
#include <stdlib.h>

void through (void (*f) (void));

void *volatile sink;

static void
alloc (void)
{
  sink = malloc (64);
  free (sink);
  __asm__ volatile ("");
}

int
main (void)
{
  through (alloc);
  puts ("ok");
  return 0;
}
