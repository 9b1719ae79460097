/* Review 8, finding 3: a thread's first GC allocation runs memprof's
   setup (runtime/generations.c) while the main thread forks.  A child
   forked during the setup finishes it at its own first GC allocation:
   glibc's pthread_once ran the whole setup again there, and Boehm
   aborted on ranges excluded twice ("Exclusion ranges overlap").  A
   correct GC_THREADS program that does not call GC_INIT: Boehm starts
   at its first GC_pthread_create, and memprof's setup at the worker's
   first GC_MALLOC.  The setup is once a process, so each round is a
   child of its own, which forks until the worker's first allocation is
   over; the parent never starts Boehm.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#define GC_THREADS
#include <gc.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>
#include "../lib/mprounds.h"

#define ROUNDS 200
#define FORKS 64

void *volatile sink;
static atomic_int go, done;

static void *
work (void *arg)
{
  while (!atomic_load (&go))
    ;
  sink = GC_MALLOC (16);
  atomic_store (&done, 1);
  return arg;
}

/* A round that hangs is killed with its children, which would keep
   the test's output open.  */
static void
hung (int sig)
{
  static const char why[] = "a round hung\n";
  (void) sig;
  if (write (2, why, sizeof why - 1) < 0)
    {
      /* killed all the same */
    }
  kill (0, SIGKILL);
}

/* The children forked by one round, back to back, and reaped after:
   0 if all of them could allocate.  */
static int
round_in_child (void)
{
  setpgid (0, 0);
  signal (SIGALRM, hung);
  alarm (5);
  pthread_t th;
  pid_t pids[FORKS];
  int n = 0, bad = 0;
  pthread_create (&th, NULL, work, NULL);
  while (n < FORKS && !atomic_load (&done))
    {
      if ((pids[n++] = fork ()) == 0)
        {
          sink = GC_MALLOC (16);
          _exit (0);
        }
      /* The worker starts once a fork is under way.  A pause in the
         kernel between forks lets it get on with its setup: without
         one, the forks starve it of Boehm's lock, and with a longer
         one the setup ends between two forks.  */
      atomic_store (&go, 1);
      usleep (0);
    }
  for (int i = 0; i < n; i++)
    bad |= !mpt_exits_ok (pids[i]);
  pthread_join (th, NULL);
  return bad;
}

int
main (void)
{
  return mpt_rounds (ROUNDS, round_in_child) != 0;
}

/* { dg-output "(^|\n)0 of 200 rounds failed\n" } */
