/* At -O2 GCC folds malloc + memset into calloc before the plugin's late
   pass: the site is the calloc GCC made, at the line of the malloc.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-memprof-verbose" } */

#include <stdlib.h>
#include <string.h>

void *volatile sink;

int
main (int argc, char **argv)
{
  size_t n = 16 + argc;
  char *p = malloc (n);		/* { dg-message "calloc -> __mp_calloc" } */
				/* { dg-bogus "malloc -> __mp_malloc" "" { target *-*-* } .-1 } */
  memset (p, 0, n);
  sink = p;
  (void) argv;
  return 0;
}
