/* __mp_user_end is called only when its bracket took the thread's user
   site: the plugin tests `took' and jumps over the call when it is 0,
   at the call site of a user allocator and in the allocator's own body,
   whose bracket takes nothing when its call was bracketed.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-allocator=wrap:malloc" } */

#include <stdlib.h>

void *volatile sink;

__attribute__ ((noinline)) void *
wrap (size_t n)
{
  return malloc (n);
}

void
use (size_t n)
{
  sink = wrap (n);
}

/* Both calls, the body's and the call site's, come right after
   `test took, took; je past the call' (past the label of the call's
   debug information, with -g), and there is no third.  */
/* { dg-final { scan-assembler "test\[lq\]\[ \t\]+%(\[a-z0-9\]+), %\\1\n\[ \t\]*je\[ \t\]+(\\.L\[0-9\]+)\n(?:\[^\n:\]*\n)\{0,4\}\[ \t\]*call\[ \t\]+\\*__mp_user_end@GOTPCREL\[^\n\]*\n(?:\\.LVL\[0-9\]+:\n)?\\2:(?:.|\n)*test\[lq\]\[ \t\]+%(\[a-z0-9\]+), %\\3\n\[ \t\]*je\[ \t\]+(\\.L\[0-9\]+)\n(?:\[^\n:\]*\n)\{0,4\}\[ \t\]*call\[ \t\]+\\*__mp_user_end@GOTPCREL\[^\n\]*\n(?:\\.LVL\[0-9\]+:\n)?\\4:" } } */
/* { dg-final { scan-assembler-not "call\[ \t\]+\\*__mp_user_end(?:.|\n)*call\[ \t\]+\\*__mp_user_end(?:.|\n)*call\[ \t\]+\\*__mp_user_end" } } */
