/* Run by interpose.exp, built without the plugin into a shared object
   that needs libgc: gc-lib-main.c's only use of Boehm.  */

#include <gc.h>

void *
gclib_alloc (unsigned long n)
{
  GC_INIT ();
  return GC_MALLOC (n);
}

void
gclib_collect (void)
{
  GC_gcollect ();
}
