/* a.c -- the first of namesakes.c's static helpers: N blocks of 1 MiB
   malloc'ed and freed.  */

#include <stdlib.h>

extern void *volatile namesakes_sink;

static void
helper (int n)
{
  for (int i = 0; i < n; i++)
    {
      namesakes_sink = malloc (1 << 20);
      free (namesakes_sink);
    }
}

void
a_run (void)
{
  helper (4);
}
