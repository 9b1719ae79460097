/* mprounds.h -- a scenario that can go wrong once a process (memprof's
   setup of Boehm), tried in rounds: each a child of its own, forked by a
   parent that never starts Boehm.  */
#ifndef MPROUNDS_H
#define MPROUNDS_H

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Whether PID (fork's result: -1 if it failed) exits with status 0.  */
static int
mpt_exits_ok (pid_t pid)
{
  int status;
  return pid > 0 && waitpid (pid, &status, 0) == pid && WIFEXITED (status)
         && WEXITSTATUS (status) == 0;
}

/* Run ROUND in ROUNDS children, one after the other, each exiting with
   what ROUND returns; say how many failed, and return it.  */
static int
mpt_rounds (int rounds, int (*round) (void))
{
  int bad = 0;
  for (int r = 0; r < rounds; r++)
    {
      fflush (NULL);
      pid_t pid = fork ();
      if (pid == 0)
        _exit (round ());
      bad += !mpt_exits_ok (pid);
    }
  printf ("%d of %d rounds failed\n", bad, rounds);
  return bad;
}

#endif
