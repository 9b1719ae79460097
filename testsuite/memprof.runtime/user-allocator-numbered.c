/* A user allocator whose allocations inside come from sites that the
   program also calls directly, so that they are numbered and their
   fast paths open: inside the allocator's calls they are still charged
   to the allocator's call site, a GC_MALLOC as a pop of gc_inline.h's,
   and outside them to their own lines.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-allocator=my_alloc:gc,my_cons:gc" } */

#include <gc.h>
#include <gc/gc_inline.h>
#include "../lib/mptest.h"

void *volatile sink;
static void **fl;
static unsigned l_malloc, l_cons;

static __attribute__ ((noinline)) void *
inner_malloc (size_t n)
{
  void *p = GC_MALLOC (n); l_malloc = __LINE__;
  return p;
}

static __attribute__ ((noinline)) void *
inner_cons (void)
{
  void *p;
  GC_CONS (p, sink, sink, fl); l_cons = __LINE__;
  return p;
}

__attribute__ ((noinline)) void *
my_alloc (size_t n)
{
  return inner_malloc (n);
}

__attribute__ ((noinline)) void *
my_cons (void)
{
  return inner_cons ();
}

int
main (void)
{
  GC_set_all_interior_pointers (0);     /* as gc_inline.h wants */
  GC_INIT ();
  fl = GC_MALLOC_UNCOLLECTABLE (GC_TINY_FREELISTS * sizeof (void *));
  unsigned l_a = 0, l_b = 0;
  for (int i = 0; i < 10; i++)
    {
      sink = inner_malloc (24);
      sink = inner_cons ();
    }
  for (int i = 0; i < 20; i++)
    {
      sink = my_alloc (24); l_a = __LINE__;
      sink = my_cons (); l_b = __LINE__;
    }
  CHECK_SITE (l_malloc, "GC_malloc", 10, 240, 10 * W (24), 0);
  CHECK_SITE (l_cons, "GC_CONS", 10, 160, 20, 0);
  CHECK_SITE (l_a, "my_alloc", 20, 480, 20 * W (24), 0);
  CHECK_SITE (l_b, "my_cons", 20, 320, 40, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
