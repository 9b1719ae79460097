/* two/same.c -- the other static helper of namesakes-dirs.c, in a file
   of the same base name: 2 MiB, in one block.  */

#include <stdlib.h>

extern void *volatile namesakes_sink;

static void
helper (size_t mib)
{
  free (namesakes_sink = malloc (mib << 20));
}

void
two_run (void)
{
  helper (2);
}
