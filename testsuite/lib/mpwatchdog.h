/* mpwatchdog.h -- for the tests that could hang for ever (a thread
   waiting for itself): they fail instead.  */
#ifndef MPWATCHDOG_H
#define MPWATCHDOG_H

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* A test that could hang for ever (a thread waiting for itself) fails
   instead: after SECONDS, WHY on stderr and exit status 1.  The alarm
   lands in a handler that only writes and exits, whatever the threads
   hold.  */
static const char *mpt_hang_why;

static void
mpt_hung (int sig)
{
  (void) sig;
  if (write (2, mpt_hang_why, strlen (mpt_hang_why)) < 0)
    _exit (2);
  _exit (1);
}

static void
mpt_watchdog (unsigned seconds, const char *why)
{
  mpt_hang_why = why;
  signal (SIGALRM, mpt_hung);
  alarm (seconds);
}

#endif
