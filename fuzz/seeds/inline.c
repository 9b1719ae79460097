/* inline.c -- a seed of the symbols fuzzer (scripts/fuzz-seeds.sh): a
   small module whose DWARF has what the symboliser walks, top-level
   functions, chains of inlined calls, lexical blocks and line tables
   over two files (this one and inline.h).  */

#include "inline.h"

static inline __attribute__ ((always_inline)) int
inner (int x)
{
  return scale (x) + 1;
}

static inline __attribute__ ((always_inline)) int
middle (int x)
{
  int s = 0;
  for (int i = 0; i < x; i++)
    {
      int y = inner (i);
      s += y * y;
    }
  return s;
}

__attribute__ ((noinline)) int
outer (int x)
{
  return middle (x) + inner (x);
}

static int __attribute__ ((noinline))
helper (int x)
{
  return x > 0 ? outer (x - 1) : 0;
}

int
entry (int x)
{
  return helper (x) + middle (x + 1);
}
