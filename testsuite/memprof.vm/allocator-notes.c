/* An allocator= that cannot be used is a note, not silence: one that
   returns no pointer, and one of the functions memprof counts already
   (GC_generic_malloc_many, which returns its list through a pointer,
   is a family of its own).  Each is noted once.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-allocator=count_cells:gc,GC_generic_malloc_many:gc" } */

#include <gc.h>
#include <gc/gc_inline.h>

void *volatile sink;

int
count_cells (int n)		/* { dg-message "note: memprof: allocator 'count_cells' returns 'int', not a pointer: it is not profiled" } */
{
  return n + 1;
}

int
main (int argc, char **argv)
{
  void *list;
  (void) argv;
  GC_generic_malloc_many (16, GC_I_NORMAL, &list); /* { dg-message "note: memprof: 'GC_generic_malloc_many' is an allocation function memprof knows; 'allocator=' is not needed, and ignored" } */
  GC_generic_malloc_many (32, GC_I_NORMAL, &list);
  sink = list;
  return count_cells (argc) + count_cells (2);
}
