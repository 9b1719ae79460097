/* Call stacks of sampled allocations, for callstack.exp, which compares
   them with gdb's backtrace at each allocating call: recursion, inlined
   helpers two deep, a loop, and a GC allocation, each printed by
   print-stack.h's callback.  */

#include <gc.h>
#include <stdio.h>
#include <stdlib.h>
#include "print-stack.h"

static void *volatile sink;

static inline __attribute__ ((always_inline)) void
leaf (int n)
{
  sink = malloc (n);
  free (sink);
}

static inline __attribute__ ((always_inline)) void
middle (int n)
{
  leaf (n + 8);
}

static __attribute__ ((noinline)) void
rec (int depth)
{
  if (depth == 0)
    middle (40);
  else
    rec (depth - 1);
  __asm__ volatile ("");
}

static __attribute__ ((noinline)) void
gc_here (void)
{
  sink = GC_MALLOC (64);
}

int
main (void)
{
  GC_INIT ();
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_minor = on_alloc;
  tr.alloc_major = on_alloc;
  if (mp_memprof_start (1, 64, &tr) != 0)
    return 1;
  rec (3);
  for (int i = 0; i < 2; i++)
    middle (i);
  gc_here ();
  mp_memprof_stop ();
  printf ("done\n");
  return 0;
}
