/* Review 8, finding 2: the program starts Boehm (GC_INIT) and collects
   (GC_gcollect, which the plugin leaves alone) in its main thread, while
   threads created with the plain pthread_create make their first GC
   allocations, which register them with Boehm (runtime/boehm.c).
   memprof's setup (generations.c) must run in the thread that starts
   Boehm, at GC_INIT: run at the first GC allocation, in a worker, its
   GC_allow_register_threads raced with main inside Boehm, which took no
   lock yet (a crash in GC_gcollect, "Tried to start parallel mark in
   bad state", or a hang) in some 5 to 25% of the runs.  The setup is
   once a process, so each round is a child of its own: the parent never
   starts Boehm.  Main collects again only once a worker has gone on:
   Boehm's allocation lock is not fair, and a main thread that took it
   again at once kept the workers waiting for it (to register, in
   GC_thread_is_registered) for 10 to 30 s on a loaded machine, plain
   Boehm as well: a round that only looked hung, past the watchdog.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#include <gc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include "../lib/mprounds.h"
#include "../lib/mpwatchdog.h"

#define ROUNDS 50
#define WORKERS 4

static atomic_int running;

/* Bumped by each worker at its first allocation and every PROGRESS
   after it.  */
static atomic_int progress;
#define PROGRESS 100

static void *
work (void *arg)
{
  (void) arg;
  void *keep = NULL;
  for (int i = 0; i < 2000; i++)
    {
      void **p = GC_MALLOC (32);
      p[0] = keep;
      keep = p;
      if (i % PROGRESS == 0)
        atomic_fetch_add (&progress, 1);
    }
  atomic_fetch_sub (&running, 1);
  return NULL;
}

static int
round_in_child (void)
{
  mpt_watchdog (5, "a round hung\n");
  GC_INIT ();
  pthread_t th[WORKERS];
  atomic_store (&running, WORKERS);
  for (int i = 0; i < WORKERS; i++)
    pthread_create (&th[i], NULL, work, NULL);
  struct timespec pause = { 0, 100000 };
  int seen = -1;
  while (atomic_load (&running) > 0)
    {
      int now = atomic_load (&progress);
      if (now != seen)
        GC_gcollect ();
      else
        nanosleep (&pause, NULL);
      seen = now;
    }
  for (int i = 0; i < WORKERS; i++)
    pthread_join (th[i], NULL);
  return 0;
}

int
main (void)
{
  return mpt_rounds (ROUNDS, round_in_child) != 0;
}

/* { dg-output "(^|\n)0 of 50 rounds failed\n" } */
