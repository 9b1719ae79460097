/* What the plugin does not recognise stays as it was: a function of a
   known name with another signature, a static function of a known name,
   and any call inside the runtime's own __mp_ functions, even once they
   are inlined into the user's code.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose" } */

#include <stdlib.h>

void *volatile sink;

extern void *GC_malloc_atomic (size_t, int);	/* not gc.h's */
static void *GC_malloc (size_t n) { return sink ? (void *) 0 : (void *) n; }

void *
__mp_helper (size_t n)
{
  return malloc (n);		/* { dg-bogus "memprof" } */
}

int
main (int argc, char **argv)
{
  (void) argv;
  sink = GC_malloc_atomic (argc, 1);	/* { dg-bogus "memprof" } */
  sink = GC_malloc (argc);		/* { dg-bogus "memprof" } */
  sink = __mp_helper (argc);
  return 0;
}
