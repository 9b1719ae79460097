/* mp_minor, mp_major_slice, mp_major, mp_full_major and mp_compact:
   their collections and counters, and the callbacks due delivered before
   they return, with no allocation after them.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

static volatile int promotes, deaths, finalised, last, alarms;
void *kept, *dropped, *fin_obj;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) a;
  (void) data;
  return (void *) &promotes;
}

static void *
on_promote (void *meta, void *data)
{
  (void) data;
  promotes++;
  return meta;
}

static void
on_dealloc (void *meta, void *data)
{
  (void) meta;
  (void) data;
  deaths++;
}

static void
on_finalise (void *obj, void *data)
{
  (void) obj;
  (void) data;
  finalised++;
}

static void
on_last (void *data)
{
  (void) data;
  last++;
}

static void
ring (void *data)
{
  (void) data;
  alarms++;
}

static __attribute__ ((noinline)) void
make_blocks (void)
{
  kept = GC_MALLOC (16);
  dropped = GC_MALLOC (16);
  fin_obj = GC_MALLOC (16);
  mp_finalise (on_finalise, fin_obj, NULL);
  mp_finalise_last (on_last, fin_obj, NULL);
}

static __attribute__ ((noinline)) void
drop (void)
{
  dropped = fin_obj = NULL;
}

int
main (void)
{
  GC_INIT ();
  mpt_start (1, (struct mp_tracker) { .alloc_minor = on_alloc,
                                      .promote = on_promote,
                                      .dealloc_minor = on_dealloc,
                                      .dealloc_major = on_dealloc });
  struct mp_stat s0, s;
  mp_quick_stat (&s0);

  make_blocks ();
  clear_stack ();
  mp_minor ();                  /* kept and fin_obj promoted, told now */
  CHECK_EQ (promotes, 3);
  mp_quick_stat (&s);
  CHECK_EQ (s.minor_collections - s0.minor_collections, 1);
  CHECK_EQ (s.forced_major_collections - s0.forced_major_collections, 0);

  struct mp_alarm *al = mp_create_alarm (ring, NULL);
  drop ();
  clear_stack ();
  mp_major ();                  /* dropped dies; fin_obj is finalisable */
  CHECK_EQ (deaths, 1);
  CHECK_EQ (alarms, 1);
  mp_quick_stat (&s);
  CHECK_EQ (s.forced_major_collections - s0.forced_major_collections, 1);

  clear_stack ();
  mp_full_major ();             /* its finaliser, then its death */
  CHECK_EQ (finalised, 1);
  CHECK_EQ (last, 1);
  CHECK_EQ (deaths, 2);
  CHECK_EQ (alarms, 3);

  mp_compact ();                /* three full collections */
  mp_quick_stat (&s);
  CHECK_EQ (s.compactions - s0.compactions, 1);
  CHECK_EQ (s.forced_major_collections - s0.forced_major_collections, 3);
  CHECK_EQ (alarms, 6);

  CHECK_EQ (mp_major_slice (0), 0);
  mp_delete_alarm (al);
  CHECK_EQ (mp_memprof_stop (), 0);
  CHECK (kept != NULL);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
