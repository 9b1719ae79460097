/* A VM installs its own Boehm callbacks, as GNU Guile does: one before
   Boehm starts, the others after memprof has started it.  The plugin
   rewrites the setters and getters, so memprof's callbacks stay in
   place: no warning, every collection counted, the program's callbacks
   called once per event, and the getters give back what the program
   set.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include <gc/gc_mark.h>
#include "../lib/mptest.h"

void *volatile sink;
static int starts, mark_ends, resizes;

static void on_start (void) { starts++; }
static void on_resize (GC_word size) { (void) size; resizes++; }
static void on_event (GC_EventType e)
{
  if (e == GC_EVENT_MARK_END)
    mark_ends++;
}

static long
collections (long *major)
{
  struct mp_stat st;
  mp_quick_stat (&st);
  *major = st.major_collections;
  return st.minor_collections;
}

int
main (void)
{
  GC_set_start_callback (on_start);	/* before Boehm starts */
  GC_INIT ();
  sink = GC_MALLOC (16);	/* memprof's set-up */
  GC_set_on_collection_event (on_event);
  GC_set_on_heap_resize (on_resize);
  CHECK (GC_get_start_callback () == on_start);
  CHECK (GC_get_on_collection_event () == on_event);
  CHECK (GC_get_on_heap_resize () == on_resize);

  long major0, major1;
  long c0 = collections (&major0);
  for (int i = 0; i < 5; i++)
    GC_gcollect ();
  long c1 = collections (&major1);
  CHECK_EQ (c1 - c0, 5);
  CHECK_EQ (major1 - major0, 5);
  CHECK_EQ (mark_ends, 5);
  CHECK_EQ (starts, 5);

  /* The heap grows: both see it.  */
  long chunks0;
  struct mp_stat st;
  mp_quick_stat (&st);
  chunks0 = st.heap_chunks;
  GC_expand_hp (64 << 20);
  mp_quick_stat (&st);
  CHECK (resizes >= 1);
  CHECK_EQ (st.heap_chunks - chunks0, resizes);

  /* Removing the program's callback leaves memprof's.  */
  GC_set_on_collection_event (0);
  CHECK (GC_get_on_collection_event () == 0);
  GC_gcollect ();
  CHECK_EQ (collections (&major1) - c1, 1);
  CHECK_EQ (mark_ends, 5);
  return mpt_done ();
}

/* { dg-output "^ok\n" } */
