/* The program's own Boehm event callback calls malloc, which memprof
   rewrites, while Boehm holds its lock; a compaction is due
   (max_overhead=0: after every full collection), and so are the
   tracker's dealloc callbacks and a finaliser.  The malloc's sampling
   slow path must not deliver them there: a compaction calls Boehm, and
   would wait for ever for the lock its own thread holds.  They run at
   the next allocation after the callback, in order.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "max_overhead=0,report=none" } */
/* { dg-timeout 30 } */

#include <gc.h>
#include <gc/gc_mark.h>
#include "../lib/mptest.h"

#define N 100

void *volatile sink;
static volatile int in_boehm, events, deaths, finalised, late;

static void
on_event (GC_EventType e)
{
  in_boehm = 1;
  void *p = malloc (64);        /* sampled: rate 1 */
  free (p);
  events += e == GC_EVENT_RECLAIM_END;
  in_boehm = 0;
}

/* The metadata: 1 for a GC block, 2 for the callback's malloc block,
   whose free tells its death at once, in the callback.  */
static void *
alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  return (void *) (a->source == MP_SOURCE_MALLOC ? 2L : 1L);
}

static void
dealloc (void *meta, void *data)
{
  (void) data;
  if (meta != (void *) 1L)
    return;
  deaths++;
  late += in_boehm;
}

static void
fin (void *obj, void *data)
{
  (void) obj;
  (void) data;
  finalised++;
  late += in_boehm;
}

static __attribute__ ((noinline)) void
garbage (void)
{
  for (int i = 0; i < N; i++)
    sink = GC_MALLOC (32);
  mp_finalise (fin, sink, NULL);
  sink = NULL;
}

int
main (void)
{
  GC_INIT ();
  sink = GC_MALLOC (16);
  struct mp_tracker tr = { alloc, alloc, NULL, dealloc, dealloc, NULL };
  CHECK_EQ (mp_memprof_start (1, 0, &tr), 0);
  GC_set_on_collection_event (on_event);
  garbage ();
  clear_stack ();
  GC_gcollect ();
  CHECK_EQ (events, 1);

  struct mp_stat st;
  mp_quick_stat (&st);
  CHECK_EQ (st.compactions, 0);         /* waited for the callback */
  sink = malloc (8);                    /* delivers */
  free (sink);
  mp_quick_stat (&st);
  CHECK (st.compactions >= 1);
  CHECK (deaths >= N / 2);
  CHECK_EQ (finalised, 1);
  CHECK_EQ (late, 0);
  mp_memprof_stop ();
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
