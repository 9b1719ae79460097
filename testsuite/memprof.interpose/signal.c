/* An allocation in a signal handler is counted, rewritten or not, in the
   main thread and in a thread that never allocated before the signal
   (its record is made in the handler).  The signals come where glibc's
   own malloc may take them (raise, a blocked wait).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1" } */

#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include "../lib/mptest.h"

void *(*volatile indirect) (size_t) = malloc;
void *volatile kept[64];
static volatile sig_atomic_t taken;
static unsigned l_handler;

static void
handler (int sig)
{
  (void) sig;
  kept[taken++] = malloc (100); l_handler = __LINE__;
  kept[taken++] = indirect (200);
}

static void *
waiter (void *arg)
{
  (void) arg;
  sigset_t set;
  sigemptyset (&set);
  sigsuspend (&set);
  return NULL;
}

int
main (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigaction (SIGUSR1, &sa, NULL);
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
  for (int i = 0; i < 10; i++)
    raise (SIGUSR1);
  mp_alloc_stats (&s1);
  CHECK_EQ (taken, 20);
  CHECK_EQ (s1.numAllocateOK - s0.numAllocateOK, 20);
  CHECK_EQ (s1.bytesAllocated - s0.bytesAllocated, 10 * 300);

  /* The thread starts with SIGUSR1 blocked, and takes it in sigsuspend.  */
  sigset_t usr1, old;
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  pthread_sigmask (SIG_BLOCK, &usr1, &old);
  pthread_t t;
  pthread_create (&t, NULL, waiter, NULL);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  mp_alloc_stats (&s0);
  pthread_kill (t, SIGUSR1);
  pthread_join (t, NULL);
  mp_alloc_stats (&s1);
  CHECK_EQ (taken, 22);
  CHECK_EQ (s1.numAllocateOK - s0.numAllocateOK, 2);
  CHECK_EQ (s1.bytesAllocated - s0.bytesAllocated, 300);
  struct mpt_site s = SITE (l_handler);
  CHECK_EQ (s.s.numAllocateOK, 11);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
