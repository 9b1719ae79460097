/* A signal handler that lands while its thread holds the site table's
   lock, making its record at its first allocation.  The handler frees
   NULL at sites of its own, which needs the thread's record and the
   sites' numbers too: it must not wait for the lock its own thread
   holds, which it would do for ever.  free (NULL) is safe in a handler
   wherever the thread was (glibc returns at once).

   The signal is aimed: this program's mmap, which the runtime linked
   into it calls, sends SIGUSR1 to its own thread as the runtime
   reserves a thread's record (PROT_NONE, MAP_NORESERVE, 128 MiB), under
   the lock.  The handler runs once the runtime lets it, an alarm
   failing the test if it never returns, and makes the thread's record
   first: the one the thread was making goes back for the next worker,
   rather than stay in use for ever.  Workers start one at a time, once
   the last one has its record, and stay until all have one: so every
   other worker reserves a record, and the report counts one record a
   worker (the main thread's report takes one of theirs back, as they
   have exited).  Every count is exact.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -g" } */
/* { dg-set-target-env-var MEMPROF "interpose=0,sampling_rate=0,report=signal-first-calls.txt" } */
/* { dg-timeout 60 } */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../lib/mptest.h"
#include "../lib/mpwatchdog.h"

#define THREADS 8
#define HANDLER_SITES 4

static __thread int aimed;      /* the worker's first allocation is on */
static atomic_long raised, handled;
static atomic_int counted;      /* workers past their first allocation */

void *
mmap (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  if (aimed && prot == PROT_NONE && (flags & MAP_NORESERVE)
      && len >= (64u << 20))
    {
      aimed = 0;
      atomic_fetch_add (&raised, 1);
      pthread_kill (pthread_self (), SIGUSR1);
    }
  return (void *) syscall (SYS_mmap, addr, len, prot, flags, fd, off);
}

static void *volatile nothing;  /* NULL, which GCC must not see freed */
static unsigned l_handler, l_first;

static void
handler (int sig)
{
  (void) sig;
  int saved = errno;
  free (nothing); free (nothing); free (nothing); free (nothing); l_handler = __LINE__;
  atomic_fetch_add (&handled, 1);
  errno = saved;
}

static void *volatile sink;
static pthread_barrier_t all_made;      /* no record is free for reuse */

static void *
work (void *arg)
{
  (void) arg;
  aimed = 1;
  void *p = malloc (16); l_first = __LINE__;
  sink = p;
  free (p);
  atomic_fetch_add (&counted, 1);
  pthread_barrier_wait (&all_made);
  return NULL;
}


int
main (void)
{
  mpt_watchdog (30, "FAIL: a signal handler waits for the lock "
                "its own thread holds\n");
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  CHECK_EQ (sigaction (SIGUSR1, &sa, NULL), 0);

  CHECK_EQ (pthread_barrier_init (&all_made, NULL, THREADS), 0);
  pthread_t tids[THREADS];
  for (int i = 0; i < THREADS; i++)
    {
      CHECK_EQ (pthread_create (&tids[i], NULL, work, NULL), 0);
      while (atomic_load (&counted) == i)
        sched_yield ();
    }
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_join (tids[i], NULL), 0);
  alarm (0);

  long h = atomic_load (&handled);
  CHECK_EQ (atomic_load (&raised), THREADS / 2);
  CHECK_EQ (h, THREADS / 2);
  CHECK_EQ (SITE (l_handler).n, HANDLER_SITES);
  CHECK_EQ (SITE (l_handler).s.numDeallocate, HANDLER_SITES * h);
  CHECK_ALLOCS (l_first, THREADS, 16 * THREADS);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
/* { dg-final { scan-file signal-first-calls.txt "\ncounters: \[0-9\]+ bytes in 8 thread records\n" } } */
