/* A signal handler that lands while its thread forks, between the
   prepare handlers and fork itself, when the runtime's handler holds
   the site table's lock so that the child finds it free: the handler
   frees NULL at a site never called before, whose number needs the
   table.  The fork only holds the lock, touching nothing: the handler
   of its own thread uses the table without it, rather than wait for
   ever (and with its signals blocked, which not even SIGALRM could
   end).  The signal is aimed: a prepare handler registered before the
   runtime's, so run after it, raises it.  Both processes count the
   handler's free.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "interpose=0,sampling_rate=0,report=none" } */

#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/mptest.h"
#include "../lib/mpwatchdog.h"

static void *volatile nothing;  /* NULL, which GCC must not see freed */
static volatile sig_atomic_t armed, handled;
static unsigned l_handler;

static void
handler (int sig)
{
  (void) sig;
  free (nothing); l_handler = __LINE__;
  handled++;
}

/* Registered before the runtime's handlers, so run after its prepare.  */
static void
prepare (void)
{
  if (armed)
    raise (SIGUSR1);
}

__attribute__ ((constructor (101))) static void
register_first (void)
{
  pthread_atfork (prepare, NULL, NULL);
}


int
main (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  CHECK_EQ (sigaction (SIGUSR1, &sa, NULL), 0);
  mpt_watchdog (20, "FAIL: a signal handler waits for the lock "
                "its own thread's fork holds\n");
  void *p = malloc (8);         /* the thread's record made */
  free (p);
  armed = 1;
  pid_t pid = fork ();
  CHECK (pid >= 0);
  if (pid == 0)
    _exit (handled == 1 && SITE (l_handler).s.numDeallocate == 1 ? 0 : 1);
  int status;
  CHECK_EQ (waitpid (pid, &status, 0), pid);
  alarm (0);
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  CHECK_EQ (handled, 1);
  CHECK_EQ (SITE (l_handler).s.numDeallocate, 1);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
