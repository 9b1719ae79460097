/* pairs.c -- the wall time of two commands run alternately, for the
   rows of short-lived processes in bench/run.sh, where a shell's own
   timing (date(1), a process per reading) would cost as much as what
   it measures.
   Usage: pairs RUNS TIMES PLAIN -- MEMPROF PROFILED
   runs the program PLAIN, then the program PROFILED with MEMPROF in its
   environment, RUNS times, each from fork to wait, with stdout and
   stderr to /dev/null, and appends to the file TIMES a line per pair:
   the two wall times, then the two CPU times (user and system, which a
   busy machine disturbs less), in seconds.  Exits 1 if a run fails.  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec * 1e-9;
}

static double
seconds (struct timeval tv)
{
  return (double) tv.tv_sec + (double) tv.tv_usec * 1e-6;
}

/* Run PROG with MEMPROF (unset if NULL); its wall time, or -1, and its
   CPU time into *CPU.  */
static double
run (const char *prog, const char *memprof, double *cpu)
{
  double t0 = now ();
  pid_t pid = fork ();
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);
      dup2 (null, STDOUT_FILENO);
      dup2 (null, STDERR_FILENO);
      if (memprof)
        setenv ("MEMPROF", memprof, 1);
      else
        unsetenv ("MEMPROF");
      execl (prog, prog, (char *) NULL);
      _exit (127);
    }
  int status;
  struct rusage ru;
  if (pid < 0 || wait4 (pid, &status, 0, &ru) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    return -1;
  *cpu = seconds (ru.ru_utime) + seconds (ru.ru_stime);
  return now () - t0;
}

int
main (int argc, char **argv)
{
  if (argc != 7 || strcmp (argv[4], "--") != 0)
    {
      fprintf (stderr, "usage: pairs RUNS TIMES PLAIN -- MEMPROF PROFILED\n");
      return 2;
    }
  int runs = atoi (argv[1]);
  FILE *times = fopen (argv[2], "a");
  if (times == NULL)
    {
      perror (argv[2]);
      return 1;
    }
  for (int i = 0; i < runs; i++)
    {
      double cp, cm, p = run (argv[3], NULL, &cp);
      double m = run (argv[6], argv[5], &cm);
      if (p < 0 || m < 0)
        {
          fprintf (stderr, "pairs: %s failed\n", p < 0 ? argv[3] : argv[6]);
          return 1;
        }
      fprintf (times, "%.6f %.6f %.6f %.6f\n", p, m, cp, cm);
    }
  return fclose (times) == 0 ? 0 : 1;
}
