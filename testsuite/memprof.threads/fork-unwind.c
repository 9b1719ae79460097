/* fork () while other threads unwind their stacks.  libunwind holds a
   lock of its own while it reads call frame information, which it does
   for every frame of a new thread; a child forked while another thread
   held it would wait for it forever, its signals blocked
   (runtime/callstack.c).  Short-lived threads take deep call stacks at
   sampling rate 1 while the main thread forks; each child takes its own
   samples and counts exactly, then forks a grandchild that does the
   same, and none may hang.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,stacks=64,report=none" } */
/* { dg-timeout 180 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#include <pthread.h>
#include <stdatomic.h>
#include "../lib/mptest.h"
#include "../lib/mpfork.h"

#define SPAWNERS 4
#define FORKS 5000
#define DEPTH 60

static unsigned l_deep;

static __attribute__ ((noinline)) int
deep (int d)
{
  if (d > 0)
    return deep (d - 1) + 1;
  char *p = malloc (24); l_deep = __LINE__;
  __asm__ volatile ("" : : "r" (p) : "memory");
  free (p);
  return 0;
}

static void *
brief (void *arg)
{
  (void) arg;
  deep (DEPTH);
  return NULL;
}

int
main (void)
{
  mpt_child_allocate (0);
  /* A new thread's every frame is new to libunwind's per-thread cache.  */
  static struct mpt_spawning spawning;
  CHECK_EQ (mpt_spawning_start (&spawning, SPAWNERS, brief), 0);
  int hung_or_wrong = 0;
  for (int i = 0; i < FORKS && hung_or_wrong == 0; i++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        {
          mpt_child_allocate (10);
          _exit (mpt_child_count () == 10 && mpt_fork_child (10, 30) == 0
                 ? 0 : 3);
        }
      CHECK (pid > 0);
      hung_or_wrong += mpt_wait_child (pid, 60);
    }
  long threads = mpt_spawning_stop (&spawning);
  CHECK_EQ (hung_or_wrong, 0);
  CHECK_EQ (SITE (l_deep).s.numAllocate, threads);
  CHECK_EQ (mpt_child_count (), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
