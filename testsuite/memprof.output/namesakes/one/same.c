/* one/same.c -- a static helper of namesakes-dirs.c: 1 MiB.  */

#include <stdlib.h>

extern void *volatile namesakes_sink;

static void
helper (void)
{
  namesakes_sink = malloc (1 << 20);
}

void
one_run (void)
{
  helper ();
  free (namesakes_sink);
}
