/* mpfork.h -- helpers shared by the fork tests: #include after mptest.h.

   mpt_child_allocate (N) allocates N blocks at a site of its own, for a
   child to count (mpt_child_count); N 0 records the site's line, so that
   the parent can check that it counts nothing there.  mpt_wait_child
   waits for a child by a clock, and kills one that hangs;
   mpt_child_run counts in a child, and mpt_fork_child forks one that
   does.  mpt_spawning_start starts threads that start short-lived
   threads meanwhile, until mpt_spawning_stop.  */

#ifndef MPFORK_H
#define MPFORK_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned mpt_child_line;

static __attribute__ ((unused)) void
mpt_child_allocate (int n)
{
  for (int i = 0; i <= n; i++)
    {
      char *p = i < n ? malloc (100) : NULL; mpt_child_line = __LINE__;
      __asm__ volatile ("" : : "r" (p) : "memory");
      free (p);
    }
}

static __attribute__ ((unused)) int64_t
mpt_child_count (void)
{
  return mpt_site_at (__FILE__, mpt_child_line, 0).s.numAllocate;
}

static double
mpt_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* 0 if PID exited with status 0 within SECONDS; otherwise it is killed.
   A clock, not a count of sleeps: the collector's signals cut them
   short.  SIGKILL, as a child hung in libunwind has its signals
   blocked.  */
static __attribute__ ((unused)) int
mpt_wait_child (pid_t pid, double seconds)
{
  int status;
  useconds_t pause = 100;
  for (double end = mpt_now () + seconds; mpt_now () < end;)
    {
      if (waitpid (pid, &status, WNOHANG) == pid)
        return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : 1;
      usleep (pause);
      if (pause < 10000)
        pause *= 2;
    }
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  fprintf (stderr, "FAIL child %ld hung\n", (long) pid);
  return 1;
}

/* In a child: allocate N blocks at mpt_child_allocate's site, and exit
   with status 0 if they are counted.  */
static __attribute__ ((noreturn, unused)) void
mpt_child_run (int n)
{
  int64_t before = mpt_child_count ();
  mpt_child_allocate (n);
  _exit (mpt_child_count () == before + n ? 0 : 3);
}

/* Fork a child that runs mpt_child_run (N); 0 if its count was right,
   within SECONDS.  */
static __attribute__ ((unused)) int
mpt_fork_child (int n, double seconds)
{
  pid_t pid = fork ();
  if (pid == 0)
    mpt_child_run (n);
  return pid < 0 ? 1 : mpt_wait_child (pid, seconds);
}

/* Threads that each start short-lived threads running FN, one after
   the other, until stopped (mpt_spawning_start, mpt_spawning_stop).  */
struct mpt_spawning
{
  void *(*fn) (void *);
  atomic_int stop;
  atomic_long started;          /* threads started and joined */
  int n;
  pthread_t spawners[8];
};

static void *
mpt_spawner (void *arg)
{
  struct mpt_spawning *s = arg;
  while (!atomic_load (&s->stop))
    {
      pthread_t t;
      if (pthread_create (&t, NULL, s->fn, NULL) == 0)
        {
          pthread_join (t, NULL);
          atomic_fetch_add (&s->started, 1);
        }
    }
  return NULL;
}

/* Start N spawners (at most 8) of threads running FN; 0 if all
   started.  */
static __attribute__ ((unused)) int
mpt_spawning_start (struct mpt_spawning *s, int n, void *(*fn) (void *))
{
  s->fn = fn;
  atomic_store (&s->stop, 0);
  atomic_store (&s->started, 0);
  for (s->n = 0; s->n < n && s->n < 8; s->n++)
    if (pthread_create (&s->spawners[s->n], NULL, mpt_spawner, s) != 0)
      break;
  return s->n == n ? 0 : -1;
}

/* Stop them; how many threads they started.  */
static __attribute__ ((unused)) long
mpt_spawning_stop (struct mpt_spawning *s)
{
  atomic_store (&s->stop, 1);
  for (int i = 0; i < s->n; i++)
    pthread_join (s->spawners[i], NULL);
  return atomic_load (&s->started);
}

#endif
