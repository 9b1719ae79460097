/* Forks from several threads at once, each while the others allocate
   from both families: each fork's handlers must know which locks they
   took themselves (runtime/fork.c).  Every child allocates at a site of
   its own and checks its count; no fork may hang.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1e-2,report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#include <pthread.h>
#define GC_THREADS
#include <gc.h>
#include "../lib/mptest.h"
#include "../lib/mpfork.h"

#define THREADS 4
#define FORKS 300

static unsigned l_malloc, l_gc;
static _Atomic int bad;

static void *
forker (void *arg)
{
  (void) arg;
  for (int i = 0; i < FORKS; i++)
    {
      char *p = malloc (24); l_malloc = __LINE__;
      void *g = GC_MALLOC (40); l_gc = __LINE__;
      __asm__ volatile ("" : : "r" (p), "r" (g) : "memory");
      free (p);
      bad += mpt_fork_child (10, 60);
    }
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  mpt_child_allocate (0);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, forker, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  CHECK_EQ (bad, 0);
  CHECK_EQ (SITE (l_malloc).s.numAllocate, THREADS * FORKS);
  CHECK_EQ (SITE (l_gc).s.numAllocate, THREADS * FORKS);
  CHECK_EQ (mpt_child_count (), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
