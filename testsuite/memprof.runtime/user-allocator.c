/* User allocators named with -fplugin-arg-memprof-allocator: their calls
   are the allocation sites.  my_alloc's own GC_MALLOC is charged to the
   call site of my_alloc, not to its line; opaque_alloc allocates where
   the plugin cannot see (through a function pointer), and its block is
   still counted at the call site, at its usable size (the request is not
   known there).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-allocator=my_alloc:gc,opaque_alloc:gc -fplugin-arg-memprof-allocator=my_malloc:malloc" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static unsigned l_inner;

__attribute__ ((noinline)) void *
my_alloc (size_t n)
{
  void *p = GC_MALLOC (n); l_inner = __LINE__;
  return p;
}

void *(*volatile hidden_gc_malloc) (size_t) = GC_malloc;

__attribute__ ((noinline)) void *
opaque_alloc (size_t n)
{
  return hidden_gc_malloc (n);
}

void *(*volatile hidden_malloc) (size_t) = malloc;

__attribute__ ((noinline)) void *
my_malloc (size_t n)
{
  return hidden_malloc (n);
}


int
main (void)
{
  GC_INIT ();
  unsigned l_a = 0, l_b = 0, l_c = 0, l_d = 0;
  for (int i = 0; i < 10; i++)
    {
      sink = my_alloc (24); l_a = __LINE__;
    }
  for (int i = 0; i < 5; i++)
    {
      sink = my_alloc (100); l_b = __LINE__;
    }
  size_t usable = 0;
  for (int i = 0; i < 7; i++)
    {
      void *p = opaque_alloc (40); l_c = __LINE__;
      sink = p;
      CHECK (GC_base (p) == p);
      usable = GC_size (p);
    }
  void *m = my_malloc (50); l_d = __LINE__;
  sink = m;

  struct mpt_site s = SITE (l_a);
  CHECK_EQ (s.n, 1);
  CHECK (s.n && strcmp (s.callee, "my_alloc") == 0);
  CHECK_EQ (s.s.numAllocate, 10);
  CHECK_EQ (s.s.numAllocateOK, 10);
  CHECK_EQ (s.s.bytesAllocated, 240);
  CHECK_EQ (s.minor_words, 10 * W (24));

  s = SITE (l_b);
  CHECK_EQ (s.s.numAllocate, 5);
  CHECK_EQ (s.s.bytesAllocated, 500);
  CHECK_EQ (s.minor_words, 5 * W (100));

  /* nothing charged to the GC_MALLOC inside my_alloc */
  s = SITE (l_inner);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.minor_words, 0);

  s = SITE (l_c);
  CHECK_EQ (s.n, 1);
  CHECK (s.n && strcmp (s.callee, "opaque_alloc") == 0);
  CHECK_EQ (s.s.numAllocate, 7);
  CHECK_EQ (s.s.numAllocateOK, 7);
  CHECK_EQ (s.s.bytesAllocated, 7 * usable);
  CHECK_EQ (s.minor_words, 7 * W (usable));

  /* a malloc-family user allocator, uninstrumented inside: the call is
     counted at its site, but its block may come from anywhere, so no
     bytes are read or counted */
  s = SITE (l_d);
  CHECK_EQ (s.n, 1);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 1);
  CHECK_EQ (s.s.bytesAllocated, 0);
  CHECK_EQ (s.minor_words + s.major_words, 0);
  free (m);

  double minor;
  mp_counters (&minor, NULL, NULL);
  CHECK_EQ (minor, 10 * W (24) + 5 * W (100) + 7 * W (usable));
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
