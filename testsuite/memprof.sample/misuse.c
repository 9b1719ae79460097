/* Starting twice, stopping when stopped, bad rates and a NULL tracker
   are errors (-1 and errno) that change nothing.  Stopping forgets the
   tracked blocks: their free calls no callback, even after a new
   start.  Rate 0 samples nothing.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <errno.h>
#include <math.h>
#include "../lib/mptest.h"

static volatile int allocs, deallocs;   /* volatile: see rate1.c */
static int meta;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) a;
  (void) data;
  allocs++;
  return &meta;
}

static void
on_dealloc (void *m, void *data)
{
  (void) m;
  (void) data;
  deallocs++;
}

static void *volatile sink;

#define CHECK_ERR(call, err)                                            \
  do {                                                                  \
    errno = 0;                                                          \
    CHECK_EQ ((call), -1);                                              \
    CHECK_EQ (errno, (err));                                            \
  } while (0)

int
main (void)
{
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_major = on_alloc;
  tr.dealloc_major = on_dealloc;

  CHECK_ERR (mp_memprof_stop (), EINVAL);
  CHECK_ERR (mp_memprof_start (-0.1, 0, &tr), EINVAL);
  CHECK_ERR (mp_memprof_start (1.5, 0, &tr), EINVAL);
  CHECK_ERR (mp_memprof_start (NAN, 0, &tr), EINVAL);
  CHECK_ERR (mp_memprof_start (0.5, 0, NULL), EINVAL);
  sink = malloc (100);
  free (sink);
  CHECK_EQ (allocs, 0);           /* none of those started sampling */

  CHECK_EQ (mp_memprof_start (1, 0, &tr), 0);
  CHECK_ERR (mp_memprof_start (1, 0, &mp_null_tracker), EBUSY);
  void *kept = malloc (100);
  CHECK_EQ (allocs, 1);           /* still the first tracker */
  CHECK_EQ (mp_memprof_stop (), 0);
  CHECK_ERR (mp_memprof_stop (), EINVAL);
  sink = malloc (100);
  free (sink);
  CHECK_EQ (allocs, 1);           /* stopped: nothing sampled */

  CHECK_EQ (mp_memprof_start (1, 0, &tr), 0);
  free (kept);                    /* tracked before the stop: forgotten */
  CHECK_EQ (deallocs, 0);
  CHECK_EQ (mp_memprof_stop (), 0);

  CHECK_EQ (mp_memprof_start (0, 0, &tr), 0);
  for (int i = 0; i < 1000; i++)
    {
      sink = malloc (1000);
      free (sink);
    }
  CHECK_EQ (allocs, 1);
  CHECK_EQ (mp_memprof_stop (), 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
