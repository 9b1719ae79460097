/* The rewritten calls reach the runtime through the GOT, with no PLT
   stub's jump before each (callees.cc gives its declarations noplt):
   the entries, and the helpers the plugin calls on its own.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-allocator=wrap:malloc" } */

#include <stdlib.h>

void *volatile sink;
extern void *wrap (size_t);

void
use (size_t n)
{
  sink = malloc (n);
  free (sink);
  sink = wrap (n);
}

/* { dg-final { scan-assembler "call\[ \t\]+\\*__mp_malloc@GOTPCREL" } } */
/* { dg-final { scan-assembler "(call|jmp)\[ \t\]+\\*__mp_free@GOTPCREL" } } */
/* { dg-final { scan-assembler "call\[ \t\]+\\*__mp_user_begin@GOTPCREL" } } */
/* { dg-final { scan-assembler-not "__mp_\[a-z_\]*@PLT" } } */
