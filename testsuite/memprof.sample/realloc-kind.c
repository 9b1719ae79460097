/* A GC_realloc that moves a block keeps Boehm's kind, and the new
   block's sample says so: the tracker gets the source of the block
   grown, atomic, normal or uncollectable.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

static int last_source = -1;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  last_source = (int) a->source;
  return NULL;
}

/* Grow a block of SOURCE, so that it moves.  */
static void
check_grown (enum mp_source source)
{
  void *p = source == MP_SOURCE_ATOMIC ? GC_MALLOC_ATOMIC (100)
            : source == MP_SOURCE_NORMAL ? GC_MALLOC (100)
            : GC_MALLOC_UNCOLLECTABLE (100);
  CHECK_EQ (last_source, source);
  last_source = -1;
  void *q = GC_REALLOC (p, 5000);
  CHECK (q != p);
  CHECK_EQ (last_source, source);
  GC_FREE (q);
}

int
main (void)
{
  GC_INIT ();
  struct mp_tracker tr = { on_alloc, on_alloc, NULL, NULL, NULL, NULL };
  CHECK_EQ (mp_memprof_start (1, 0, &tr), 0);
  check_grown (MP_SOURCE_ATOMIC);
  check_grown (MP_SOURCE_NORMAL);
  check_grown (MP_SOURCE_UNCOLLECTABLE);
  mp_memprof_stop ();
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
