/* With -flto the plugin runs at link time (the harness compiles and
   links in one step, with the plugin on that line): counts are exact.  */
/* { dg-do run } */
/* { dg-require-effective-target lto } */
/* { dg-options "-std=gnu11 -flto" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static unsigned l_m, l_f, l_gc;

__attribute__ ((noinline)) static void *
get (size_t n)
{
  void *p = malloc (n); l_m = __LINE__;
  return p;
}

int
main (void)
{
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  for (int i = 0; i < 250; i++)
    {
      void *p = get (12);
      sink = p;
      free (p); l_f = __LINE__;
    }
  for (int i = 0; i < 9; i++)
    {
      sink = GC_MALLOC (80); l_gc = __LINE__;
    }
  struct mpt_site s = SITE (l_m);
  CHECK_EQ (s.s.numAllocate, 250);
  CHECK_EQ (s.s.bytesAllocated, 3000);
  s = SITE (l_f);
  CHECK_EQ (s.s.numDeallocate, 250);
  CHECK_EQ (s.s.bytesContracted, 3000);
  s = SITE (l_gc);
  CHECK_EQ (s.s.numAllocate, 9);
  CHECK_EQ (s.minor_words, 90);
  mp_alloc_stats (&g);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 259);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 9 * GC_size (sink));
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
