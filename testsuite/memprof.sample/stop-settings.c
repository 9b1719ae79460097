/* mp_memprof_stop puts the report's rate back in every thread, not
   only in its own: each thread samples from a copy of the settings
   (sample.c), which the stop must make stale.  Another thread samples
   at the session's rate 1, then, after the stop, at MEMPROF's 1e-6:
   its 100 000 one-word blocks then take 0.1 samples expected, not
   100 000.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1e-6,report=none" } */

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include "../lib/mptest.h"

#define BLOCKS 100000

void *volatile sink;
static atomic_int step;         /* 1: the session's blocks allocated;
                                   2: stopped */

static __attribute__ ((noinline)) void
during (void)
{
  for (int i = 0; i < 1000; i++)
    {
      sink = malloc (8);
      free (sink);
    }
}

static __attribute__ ((noinline)) void
after (void)
{
  for (int i = 0; i < BLOCKS; i++)
    {
      sink = malloc (8);
      free (sink);
    }
}

static void *
worker (void *arg)
{
  during ();
  atomic_store (&step, 1);
  while (atomic_load (&step) != 2)
    sched_yield ();
  after ();
  return arg;
}

static const struct mp_tracker quiet = { NULL, NULL, NULL, NULL, NULL, NULL };

struct seen
{
  uint64_t during, after;
};

static int
count (const struct mp_space_profile *p, void *data)
{
  struct seen *s = data;
  if (strcmp (p->function, "during") == 0)
    s->during = p->samples;
  else if (strcmp (p->function, "after") == 0)
    s->after = p->samples;
  return 0;
}

int
main (void)
{
  CHECK_EQ (mp_memprof_start (1, 4, &quiet), 0);
  pthread_t th;
  CHECK_EQ (pthread_create (&th, NULL, worker, NULL), 0);
  while (atomic_load (&step) != 1)
    sched_yield ();
  CHECK_EQ (mp_memprof_stop (), 0);
  atomic_store (&step, 2);
  CHECK_EQ (pthread_join (th, NULL), 0);
  struct seen s = { 0, 0 };
  CHECK_EQ (mp_space_profile_foreach (count, &s), 0);
  CHECK_EQ (s.during, 1000);    /* one word each, at rate 1 */
  CHECK (s.after <= 5);         /* P (more) < 1e-8 at mean 0.1 */
  return mpt_done ();
}

/* { dg-output "ok\n" } */
