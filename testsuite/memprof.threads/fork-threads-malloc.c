/* A program that never uses the GC heap does not load libgc (issue 18;
   runtime/gcweak.h), and every path it takes works without it: threads
   that allocate, take samples and exit, forks from several of them at
   once (runtime/fork.c's handlers, which ask about Boehm), memprof.h's
   settings and statistics, and the report at exit.  Each child counts
   its allocations exactly and has no libgc either; linked --as-needed,
   as Debian's gcc links, so the test's own -lgc stays out unless
   something needs it.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -Wl,--as-needed" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1e-2,report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#include <pthread.h>
#include "../lib/mptest.h"
#include "../lib/mpfork.h"
#include "../lib/mpmaps.h"

#define THREADS 4
#define FORKS 50

static unsigned l_malloc;
static _Atomic int bad;

/* Count in a child, which must not have libgc either.  */
static int
fork_child (void)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      int64_t before = mpt_child_count ();
      mpt_child_allocate (10);
      _exit (mpt_child_count () == before + 10 && !mpt_mapped ("/libgc.so")
             ? 0 : 3);
    }
  return pid < 0 ? 1 : mpt_wait_child (pid, 60);
}

static void *
forker (void *arg)
{
  (void) arg;
  for (int i = 0; i < FORKS; i++)
    {
      char *p = malloc (24); l_malloc = __LINE__;
      __asm__ volatile ("" : : "r" (p) : "memory");
      free (p);
      bad += fork_child ();
    }
  return NULL;
}

int
main (void)
{
  mpt_child_allocate (0);
  struct mp_control c;
  mp_get (&c);
  c.incremental = 1;            /* without Boehm, a value kept */
  CHECK_EQ (mp_set (&c), 0);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, forker, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  struct mp_stat st;
  mp_stat (&st);
  CHECK_EQ (st.minor_collections, 0);
  CHECK_EQ (st.heap_words, 0);
  CHECK_EQ (bad, 0);
  CHECK_EQ (SITE (l_malloc).s.numAllocate, THREADS * FORKS);
  CHECK_EQ (mpt_child_count (), 0);
  CHECK_EQ (mpt_mapped ("/libgc.so"), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
