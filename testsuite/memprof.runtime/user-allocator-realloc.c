/* User allocators that grow a block with realloc or GC_realloc: the
   realloc inside is charged to the call, as an allocation inside would
   be, and the block it returns is not counted a second time as the
   call's result (no numAllocate at the call, minor_words and
   promoted_words once).  Both a moving realloc and one in place, which
   malloc's fast path makes.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-allocator=gc_grow:gc,grow:malloc" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static unsigned l_gc_inner, l_inner;

__attribute__ ((noinline)) void *
gc_grow (void *p, size_t n)
{
  void *q = GC_REALLOC (p, n); l_gc_inner = __LINE__;
  return q;
}

__attribute__ ((noinline)) void *
grow (void *p, size_t n)
{
  void *q = realloc (p, n); l_inner = __LINE__;
  return q;
}

/* The sites at LINE made no allocation, and COUNT reallocs that added
   EXPANDED bytes.  */
static void
check_reallocs (unsigned line, unsigned long count, unsigned long expanded)
{
  struct mpt_site s = SITE (line);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.s.numReallocate, count);
  CHECK_EQ (s.s.bytesExpanded, expanded);
}

int
main (void)
{
  GC_INIT ();
  void *g = GC_MALLOC (16);
  mp_minor ();                  /* g is old */
  double minor0, promoted0, minor, promoted;
  mp_counters (&minor0, &promoted0, NULL);
  size_t old = GC_size (g);
  g = gc_grow (g, 200); unsigned l_moved = __LINE__;
  sink = g;
  g = gc_grow (g, 200); unsigned l_in_place = __LINE__;
  sink = g;
  mp_counters (&minor, NULL, NULL);
  CHECK_EQ (minor - minor0, W (200));
  mp_minor ();
  mp_counters (NULL, &promoted, NULL);
  CHECK_EQ (promoted - promoted0, W (200));
  check_reallocs (l_moved, 1, 200 - old);
  check_reallocs (l_in_place, 1, 0);
  CHECK_EQ (SITE (l_in_place).s.numReallocateInPlace, 1);
  CHECK_EQ (SITE (l_moved).minor_words, W (200));
  CHECK_EQ (SITE (l_in_place).minor_words, 0);
  check_reallocs (l_gc_inner, 0, 0);

  char *m = malloc (10);
  m = grow (m, 1000); unsigned l_m_moved = __LINE__;
  m = grow (m, 1001); unsigned l_m_in_place = __LINE__;
  sink = m;
  check_reallocs (l_m_moved, 1, 990);
  check_reallocs (l_m_in_place, 1, 1);
  check_reallocs (l_inner, 0, 0);
  free (m);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
