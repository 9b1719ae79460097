/* A malloc-family user allocator whose body is instrumented, as gawk's
   pma_malloc is: its malloc inside, from a site the program also calls
   directly (numbered, and on malloc's fast path), is charged to the
   wrapper's call site, every call, and the site is free again for the
   next allocation, inside the call or after it.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-allocator=my_wrap:malloc,my_two:malloc" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static unsigned l_inner, l_second, l_gc;

static __attribute__ ((noinline)) void *
inner (size_t n)
{
  void *p = malloc (n); l_inner = __LINE__;
  return p;
}

__attribute__ ((noinline)) void *
my_wrap (size_t n)
{
  return inner (n);
}

/* Two allocations inside one call: the first is the call's, the rest
   their own sites'.  */
__attribute__ ((noinline)) void *
my_two (size_t n)
{
  void *p = inner (n);
  sink = malloc (n + 1); l_second = __LINE__;
  free (sink);
  sink = GC_MALLOC (n); l_gc = __LINE__;
  return p;
}

#define CALLS 1000

int
main (void)
{
  GC_INIT ();
  unsigned l_direct = 0, l_wrap = 0, l_two = 0, l_free = 0;
  size_t bytes = 0;
  for (int i = 0; i < 10; i++)
    {
      free (inner (8)); l_direct = __LINE__;
    }
  static void *blocks[CALLS];
  for (int i = 0; i < CALLS; i++)
    {
      blocks[i] = my_wrap (16 + i % 50); l_wrap = __LINE__;
      bytes += 16 + i % 50;
    }
  for (int i = 0; i < CALLS; i++)
    {
      free (blocks[i]); l_free = __LINE__;
    }
  for (int i = 0; i < CALLS; i++)
    {
      free (my_two (24)); l_two = __LINE__;
    }

  struct mpt_site s = SITE (l_wrap);
  CHECK_EQ (s.n, 1);
  CHECK_EQ (s.s.numAllocate, CALLS);
  CHECK_EQ (s.s.numAllocateOK, CALLS);
  CHECK_EQ (s.s.bytesAllocated, bytes);
  s = SITE (l_two);
  CHECK_EQ (s.s.numAllocate, CALLS);
  CHECK_EQ (s.s.bytesAllocated, 24 * CALLS);
  /* the inner malloc: its ten direct calls only (l_direct's own site is
     the free) */
  s = SITE (l_inner);
  CHECK_EQ (s.s.numAllocate, 10);
  CHECK_EQ (s.s.bytesAllocated, 80);
  CHECK_ALLOCS (l_second, CALLS, 25 * CALLS);
  CHECK_SITE (l_gc, "GC_malloc", CALLS, 24 * CALLS, CALLS * W (24), 0);
  (void) l_direct;
  /* the wrapper's blocks are tagged as ours: their frees see sizes */
  CHECK_FREES (l_free, CALLS, bytes);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
