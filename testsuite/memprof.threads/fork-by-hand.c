/* Boehm started before the runtime with its fork handling off, as gc.h
   tells a program that forks by hand: the program calls
   GC_atfork_prepare before fork, and so holds Boehm's lock when the
   runtime's fork handler runs, which must not ask for it
   (runtime/fork.c).  2 threads fork by hand while a third collects
   without pause; the children count exactly, and no fork may hang.  */
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

#define THREADS 2
#define FORKS 100

static unsigned l_gc;
static atomic_int stop, bad;

/* Before the runtime's own constructor (priority 101).  */
__attribute__ ((constructor (100))) static void
start_boehm_first (void)
{
  GC_set_handle_fork (0);
  GC_INIT ();
}

static void *
collector (void *arg)
{
  (void) arg;
  while (!atomic_load (&stop))
    GC_gcollect ();
  return NULL;
}

static int
fork_by_hand (void)
{
  GC_atfork_prepare ();
  pid_t pid = fork ();
  if (pid == 0)
    {
      GC_atfork_child ();
      mpt_child_run (10);
    }
  GC_atfork_parent ();
  return pid < 0 ? 1 : mpt_wait_child (pid, 60);
}

static void *
forker (void *arg)
{
  (void) arg;
  for (int i = 0; i < FORKS; i++)
    {
      void *g = GC_MALLOC (40); l_gc = __LINE__;
      __asm__ volatile ("" : : "r" (g) : "memory");
      bad += fork_by_hand ();
    }
  return NULL;
}

int
main (void)
{
  mpt_child_allocate (0);
  pthread_t c, t[THREADS];
  CHECK_EQ (pthread_create (&c, NULL, collector, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, forker, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  atomic_store (&stop, 1);
  pthread_join (c, NULL);
  CHECK_EQ (bad, 0);
  CHECK_EQ (SITE (l_gc).s.numAllocate, THREADS * FORKS);
  CHECK_EQ (mpt_child_count (), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
