/* Built by interpose.exp into a shared object with the plugin, which
   dlopen-main.c loads and unloads: its sites must outlive it.  */

#include <stdlib.h>

void *kept[10];

void
lib_alloc (void)
{
  for (int i = 0; i < 10; i++)
    kept[i] = malloc (100);
  for (int i = 0; i < 5; i++)
    free (kept[i]);
}
