/* Built by interpose.exp into four shared objects, each with its own
   FN (and SIZE), which unload-main.c loads: with the plugin or without,
   the call below is the same instruction in each, at the same offset.  */

#include <stdlib.h>

void *volatile unload_kept;

void
FN (void)
{
  unload_kept = malloc (SIZE);
}
