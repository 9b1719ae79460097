/* b.c -- the second of namesakes.c's static helpers, the same name as
   a.c's: one block of MIB MiB at a time, kept until the next.  */

#include <stdlib.h>

extern void *volatile namesakes_sink;

static void
helper (int mib)
{
  void *last = NULL;
  while (mib-- > 0)
    {
      free (last);
      last = namesakes_sink = malloc (1 << 20);
    }
  free (last);
}

void
b_run (void)
{
  helper (16);
}
