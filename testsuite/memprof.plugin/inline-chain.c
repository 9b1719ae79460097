/* An allocation inside inlined helpers is noted once, at the line of
   the allocation call inside the innermost helper, whether the helpers
   are inlined (-O2) or not (-O0).  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose" } */

#include <stdlib.h>

void *volatile sink;

static inline void *
inner (size_t n)
{
  return malloc (n);	/* { dg-message "memprof: malloc -> __mp_malloc" } */
}

static inline void *
outer (size_t n)
{
  return inner (n + 8);
}

int
main (int argc, char **argv)
{
  (void) argv;
  sink = outer (argc);
  return 0;
}
