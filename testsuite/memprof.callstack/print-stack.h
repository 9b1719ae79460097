/* print-stack.h -- the allocation callback of callstack.exp's programs
   (stacks.c, names.c): for each allocation it is called with, it prints
   `stack', then `frame FUNCTION LINE' for the frames of its call stack,
   innermost first, up to main, which callstack.exp compares with gdb's
   backtrace.  */

#ifndef PRINT_STACK_H
#define PRINT_STACK_H

#include <stdio.h>
#include <string.h>
#include <memprof.h>

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  struct mp_frame f;
  printf ("stack\n");
  for (size_t i = 0; mp_callstack_frame (a->callstack, i, &f) == 0; i++)
    {
      printf ("frame %s %u\n", f.function, f.line);
      if (strcmp (f.function, "main") == 0)
        break;
    }
  return NULL;
}

#endif
