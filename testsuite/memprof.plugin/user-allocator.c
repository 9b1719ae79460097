/* A user allocator named on the command line is bracketed by
   __mp_user_begin and __mp_user_end, whether its result is used, stored
   in memory or dropped; the option may be repeated and take a list.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose -fplugin-arg-memprof-allocator=vm_alloc:gc -fplugin-arg-memprof-allocator=cell_alloc:gc_atomic,pool_get:malloc,root_alloc:gc_uncollectable" } */

#include <stddef.h>

extern void *vm_alloc (size_t);
extern void *cell_alloc (size_t);
extern char *pool_get (int);
extern void *root_alloc (size_t);
extern void *not_an_allocator (size_t);

void *volatile sink;
struct holder { void *p; } h;

int
main (int argc, char **argv)
{
  (void) argv;
  sink = vm_alloc (argc);		/* { dg-message "memprof: vm_alloc -> __mp_user_begin/__mp_user_end .gc." } */
  h.p = cell_alloc (argc);		/* { dg-message "memprof: cell_alloc -> __mp_user_begin/__mp_user_end .gc_atomic." } */
  pool_get (argc);			/* { dg-message "memprof: pool_get -> __mp_user_begin/__mp_user_end .malloc." } */
  sink = root_alloc (8);		/* { dg-message "memprof: root_alloc -> __mp_user_begin/__mp_user_end .gc_uncollectable." } */
  sink = not_an_allocator (8);		/* { dg-bogus "memprof" } */
  return 0;
}
