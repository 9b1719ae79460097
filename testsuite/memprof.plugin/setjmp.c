/* Calls in a function that calls setjmp have abnormal edges when they
   are not leaf functions (GC_malloc); the rewrite keeps them.  */
/* { dg-do compile } */
/* { dg-options "-fchecking -fplugin-arg-memprof-verbose" } */

#include <setjmp.h>
#include <stdlib.h>
#include <gc.h>

jmp_buf env;
void *volatile sink;

int
main (int argc, char **argv)
{
  (void) argv;
  if (setjmp (env))
    return 1;
  sink = GC_malloc (argc);	/* { dg-message "memprof: GC_malloc -> __mp_GC_malloc" } */
  sink = malloc (argc);		/* { dg-message "memprof: malloc -> __mp_malloc" } */
  if (argc > 5)
    longjmp (env, 1);
  return 0;
}
