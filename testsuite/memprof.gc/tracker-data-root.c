/* The tracker's data, which mp_memprof_start copies, stays alive while
   sampling is started, though only memprof holds it: the runtime's copy
   is one of the few objects of its own that Boehm scans (MP_GC_ROOT,
   runtime/roots.h).  Once sampling is stopped, memprof lets it go.  A
   disappearing link tells whether Boehm reclaimed it.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <gc.h>
#include "../lib/mptest.h"

#define MAGIC 0x5eed1e55L

void *volatile sink;

/* Hidden, so that it does not keep its block alive.  */
static GC_hidden_pointer link;
static volatile int calls, good;

static void *
alloc (const struct mp_allocation *a, void *data)
{
  (void) a;
  calls++;
  good += data == (void *) GC_REVEAL_POINTER (link) && *(long *) data == MAGIC;
  return NULL;
}

/* Start sampling with a tracker whose data is a GC block that nothing
   of the program's points to once this returns.  */
static __attribute__ ((noinline)) void
start (void)
{
  long *data = GC_MALLOC (64);
  *data = MAGIC;
  link = GC_HIDE_POINTER (data);
  CHECK_EQ (GC_general_register_disappearing_link ((void **) &link, data),
            GC_SUCCESS);
  struct mp_tracker tr = { alloc, alloc, NULL, NULL, NULL, data };
  CHECK_EQ (mp_memprof_start (1, 0, &tr), 0);
}

int
main (void)
{
  GC_INIT ();
  start ();
  for (int i = 0; i < 3; i++)
    collect ();
  CHECK (link != 0);
  sink = GC_MALLOC (16);        /* sampled: rate 1 */
  CHECK_EQ (calls, 1);
  CHECK_EQ (good, 1);
  CHECK_EQ (mp_memprof_stop (), 0);
  sink = NULL;
  for (int i = 0; i < 3 && link != 0; i++)
    collect ();
  CHECK_EQ (link, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
