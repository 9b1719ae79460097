/* A user allocator (-fplugin-arg-memprof-allocator) inside which a
   collection happens: it calls GC_gcollect, then allocates where the
   plugin cannot see (through a volatile function pointer).  Its block is
   young from after that collection: dropped, it must not be promoted at
   the next collection; kept, it is promoted once, with its words (the
   block is counted at its usable size, as user-allocator.c says).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-allocator=collecting_alloc:gc" } */

#include <gc.h>
#include "../lib/mptest.h"


static void *(*volatile hidden_malloc) (size_t) = GC_malloc;
static void (*volatile hidden_collect) (void) = GC_gcollect;

void *volatile sink;
void *keep;			/* global: the store must stay */
static unsigned l_alloc;

__attribute__ ((noinline)) void *
collecting_alloc (size_t n)
{
  hidden_collect ();
  return hidden_malloc (n);
}

static double
promoted_now (void)
{
  double p;
  mp_counters (NULL, &p, NULL);
  return p;
}

static long
collections_now (void)
{
  struct mp_stat st;
  mp_quick_stat (&st);
  return st.minor_collections;
}

/* Some young blocks, then a block from the user allocator, dropped.  */
static __attribute__ ((noinline)) void
drop_one (void)
{
  for (int i = 0; i < 1000; i++)
    sink = GC_MALLOC (32);
  void *p = collecting_alloc (32); l_alloc = __LINE__;
  (void) p;
  sink = NULL;
}

static __attribute__ ((noinline)) void
keep_one (void)
{
  keep = collecting_alloc (32);
}

int
main (void)
{
  GC_INIT ();
  sink = GC_MALLOC (16);	/* start memprof's accounting */
  collect ();

  /* 1. Dropped: not promoted.  */
  long c0 = collections_now ();
  drop_one ();
  CHECK (collections_now () - c0 >= 1);	/* the allocator's own */
  clear_stack ();
  double p0 = promoted_now ();
  collect ();
  CHECK_EQ (promoted_now () - p0, 0);

  struct mpt_site s = SITE (l_alloc);
  CHECK_EQ (s.n, 1);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 1);

  /* 2. Kept: promoted once, exactly.  */
  keep_one ();
  clear_stack ();
  p0 = promoted_now ();
  collect ();
  CHECK_EQ (promoted_now () - p0, W (GC_size (keep)));
  p0 = promoted_now ();
  collect ();
  CHECK_EQ (promoted_now () - p0, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
