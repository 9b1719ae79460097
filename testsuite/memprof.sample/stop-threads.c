/* mp_memprof_stop with other threads in the middle of callbacks: it
   returns once they are over, and no callback runs after it.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-timeout 120 } */

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include "../lib/mptest.h"

#define THREADS 3

static atomic_int stopped, done;
static atomic_long calls, late;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) a;
  (void) data;
  calls++;
  for (volatile int i = 0; i < 1000; i++)
    ;                           /* long enough to be caught inside */
  late += atomic_load (&stopped);
  return NULL;
}

static void *
worker (void *arg)
{
  void *volatile p;
  while (!atomic_load (&done))
    {
      p = malloc (8);
      free (p);
    }
  return arg;
}

static void
pause_ms (long ms)
{
  struct timespec ts = { 0, ms * 1000000 };
  nanosleep (&ts, NULL);
}

int
main (void)
{
  pthread_t t[THREADS];
  for (int round = 0; round < 20; round++)
    {
      atomic_store (&stopped, 0);
      atomic_store (&done, 0);
      mpt_start (1, (struct mp_tracker) { .alloc_major = on_alloc });
      for (int i = 0; i < THREADS; i++)
        pthread_create (&t[i], NULL, worker, NULL);
      pause_ms (5);
      CHECK_EQ (mp_memprof_stop (), 0);
      atomic_store (&stopped, 1);
      pause_ms (5);
      atomic_store (&done, 1);
      for (int i = 0; i < THREADS; i++)
        pthread_join (t[i], NULL);
    }
  CHECK (calls > 0);
  CHECK_EQ (late, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
