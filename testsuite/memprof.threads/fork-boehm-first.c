/* Boehm started before the runtime, as another library's constructor
   would start it: its fork handler is registered first, and runs after
   ours (runtime/fork.c).  4 threads fork while a fifth collects without
   pause, so that forks meet collections ending, whose callbacks take the
   runtime's locks holding Boehm's, and a sixth calls mp_finalise, which
   calls Boehm; the children count exactly, and no fork may hang.

   fork-by-hand.c and fork-by-hand-late.c include this file for a program
   that forks by hand (BY_HAND): Boehm's fork handling off, and
   GC_atfork_prepare, which takes Boehm's lock, called before fork;
   Boehm started before the runtime, or in main (BOEHM_IN_MAIN).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -Wno-prio-ctor-dtor" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#include <pthread.h>
#include <stdatomic.h>
#define GC_THREADS
#include <gc.h>
#include "../lib/mptest.h"
#include "../lib/mpfork.h"

#define THREADS 4
#define FORKS 50

static unsigned l_gc, l_fin;
static atomic_int stop, bad;
static atomic_long finalised, registered;

static void
start_boehm (void)
{
#ifdef BY_HAND
  GC_set_handle_fork (0);
#endif
  GC_INIT ();
}

#ifndef BOEHM_IN_MAIN
/* Before the runtime's own constructor (priority 101).  */
__attribute__ ((constructor (100))) static void
start_boehm_first (void)
{
  start_boehm ();
}
#endif

static void *
collector (void *arg)
{
  (void) arg;
  while (!atomic_load (&stop))
    GC_gcollect ();
  return NULL;
}

static void
count (void *obj, void *data)
{
  (void) obj;
  (void) data;
  finalised++;
}

static void *
finaliser (void *arg)
{
  (void) arg;
  while (!atomic_load (&stop))
    {
      void *o = GC_MALLOC (16); l_fin = __LINE__;
      mp_finalise (count, o, NULL);
      registered++;
    }
  return NULL;
}

static int
fork_child (void)
{
#ifdef BY_HAND
  GC_atfork_prepare ();
  pid_t pid = fork ();
  if (pid == 0)
    {
      GC_atfork_child ();
      mpt_child_run (10);
    }
  GC_atfork_parent ();
  return pid < 0 ? 1 : mpt_wait_child (pid, 60);
#else
  return mpt_fork_child (10, 60);
#endif
}

static void *
forker (void *arg)
{
  (void) arg;
  for (int i = 0; i < FORKS; i++)
    {
      void *g = GC_MALLOC (40); l_gc = __LINE__;
      __asm__ volatile ("" : : "r" (g) : "memory");
      bad += fork_child ();
    }
  return NULL;
}

int
main (void)
{
#ifdef BOEHM_IN_MAIN
  start_boehm ();
#endif
  mpt_child_allocate (0);
  pthread_t c, f, t[THREADS];
  CHECK_EQ (pthread_create (&c, NULL, collector, NULL), 0);
  CHECK_EQ (pthread_create (&f, NULL, finaliser, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, forker, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  atomic_store (&stop, 1);
  pthread_join (c, NULL);
  pthread_join (f, NULL);
  CHECK_EQ (bad, 0);
  CHECK_EQ (SITE (l_gc).s.numAllocate, THREADS * FORKS);
  CHECK_EQ (SITE (l_fin).s.numAllocate, registered);
  clear_stack ();
  for (int k = 0; k < 10 && finalised < registered; k++)
    {
      GC_gcollect ();
      GC_invoke_finalizers ();
    }
  CHECK (registered > 0);
  CHECK_EQ (finalised, registered);
  CHECK_EQ (mpt_child_count (), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
