/* A user allocator defined in the same file need not be kept out of
   line: at -O0 its call is bracketed, at -O2 it is inlined and its own
   body's bracket gets the call's place.  The allocations inside it are
   rewritten as usual.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose -fplugin-arg-memprof-allocator=new_cell:gc" } */

#include <gc.h>

void *volatile sink;

static void *
new_cell (size_t n)
{
  return GC_malloc (n * 2);	/* { dg-message "memprof: GC_malloc -> __mp_GC_malloc" } */
}

int
main (int argc, char **argv)
{
  (void) argv;
  sink = new_cell (argc);	/* { dg-message "memprof: new_cell( .inlined.)? -> __mp_user_begin/__mp_user_end .gc." } */
  return 0;
}
