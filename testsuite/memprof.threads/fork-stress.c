/* fork () in the middle of allocation: 4 threads allocate from both
   families at sampling rate 1 while the main thread forks 16 times.
   Each child allocates at a site of its own, checks that site's exact
   count, and exits through the report, written to its own file
   (fork-stress-PID.txt); none may hang (the parent kills one that takes
   60 s and fails).  The parent's counts stay exact.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=fork-stress-%p.txt" } */
/* { dg-timeout 180 } */
/* GCC 12's ASan takes no lock of its allocator around fork: a child
   forked while another thread is inside ASan's malloc may hang in its
   own next malloc (and LeakSanitizer, looking for the parent's threads,
   crashes or hangs in such a child).  */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>
#define GC_THREADS
#include <gc.h>
#include "../lib/mptest.h"
#include "../lib/mpfork.h"

#define THREADS 4
#define FORKS 16
#define CHILD_N 1000

static unsigned l_malloc, l_gc;
static atomic_int stop;
static atomic_long done;

static void *
worker (void *arg)
{
  (void) arg;
  while (!atomic_load (&stop))
    {
      char *p = malloc (24); l_malloc = __LINE__;
      void *g = GC_MALLOC (40); l_gc = __LINE__;
      __asm__ volatile ("" : : "r" (p), "r" (g) : "memory");
      free (p);
      atomic_fetch_add (&done, 1);
    }
  return NULL;
}

static void
child (void)
{
  mpt_failures = 0;             /* the parent's, inherited */
  mpt_child_allocate (CHILD_N);
  CHECK_EQ (mpt_child_count (), CHILD_N);
  exit (mpt_done () == 0 ? 0 : 3);
}

/* Whether the report of PID counts CHILD_N blocks at the child's site.  */
static int
child_report_ok (pid_t pid)
{
  char name[64], want[64];
  snprintf (name, sizeof name, "fork-stress-%ld.txt", (long) pid);
  snprintf (want, sizeof want, "(%u): [numAllocate:%d,", mpt_child_line,
            CHILD_N);
  return mpt_file_has (name, want);
}

int
main (void)
{
  GC_INIT ();
  mpt_child_allocate (0);
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, worker, (void *) i), 0);
  for (int f = 0; f < FORKS; f++)
    {
      long before = atomic_load (&done);
      while (atomic_load (&done) < before + 1000)
        sched_yield ();         /* the threads are allocating */
      pid_t pid = fork ();
      if (pid == 0)
        child ();
      CHECK (pid > 0);
      CHECK_EQ (mpt_wait_child (pid, 60), 0);
      CHECK (child_report_ok (pid));
    }
  atomic_store (&stop, 1);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  long n = atomic_load (&done);
  CHECK_EQ (SITE (l_malloc).s.numAllocate, n);
  CHECK_EQ (SITE (l_gc).s.numAllocate, n);
  CHECK_EQ (mpt_child_count (), 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
