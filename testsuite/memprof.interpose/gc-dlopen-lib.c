/* Run by interpose.exp: built with the plugin into a shared object
   that needs libgc, which gc-dlopen-main.c loads with dlopen.  */

#include <gc.h>

void *volatile kept[10];

void
lib_gc_alloc (void)
{
  for (int i = 0; i < 10; i++)
    kept[i] = GC_MALLOC (16);
}
