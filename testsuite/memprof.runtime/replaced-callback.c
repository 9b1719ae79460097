/* Code built without the plugin (here, a call through a pointer, which
   the plugin does not see) installs its own GC_set_on_collection_event
   callback after the program's first instrumented GC allocation
   (memprof's set-up), so memprof's callback is replaced.  When the thread's young-block log has
   to make room (more than 4096 young blocks), the runtime notices, puts
   its callbacks back with the program's chained after them, and warns
   once.  From then on collections are counted again, and the program's
   callback is still called at each one.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

#define N 10000			/* young blocks: more than the log's 4096 */

void *volatile sink;
static int mark_ends;
static void (*volatile hidden_set) (GC_on_collection_event_proc)
  = GC_set_on_collection_event;

static void
on_event (GC_EventType e)
{
  if (e == GC_EVENT_MARK_END)
    mark_ends++;
}

static long
collections_now (void)
{
  struct mp_stat st;
  mp_quick_stat (&st);
  return st.minor_collections;
}

int
main (void)
{
  GC_INIT ();
  sink = GC_MALLOC (16);	/* memprof's set-up happens here */
  hidden_set (on_event);

  /* Memprof does not see this one (documented); the program does.  */
  GC_gcollect ();
  CHECK_EQ (mark_ends, 1);

  GC_disable ();
  for (int i = 0; i < N; i++)
    sink = GC_MALLOC (16);
  GC_enable ();
  CHECK_EQ (mark_ends, 1);

  long c0 = collections_now ();
  int e0 = mark_ends;
  for (int i = 0; i < 3; i++)
    GC_gcollect ();
  CHECK_EQ (collections_now () - c0, 3);
  CHECK_EQ (mark_ends - e0, 3);
  return mpt_done ();
}

/* { dg-output "memprof: the program replaced memprof's Boehm callbacks; they are back, but the collections in between were not counted\n(.*\n)?ok\n" } */
