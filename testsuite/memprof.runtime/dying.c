/* How a process ends decides what it leaves (runtime/fatal.c): a child
   killed by abort, a real SIGSEGV or SIGTERM writes its exact counts on
   stderr and still dies by that signal; one that leaves by _exit writes
   nothing and keeps its status; a signal the program handles stays its
   own.  Each child has threads allocating meanwhile, so it dies in the
   middle of their allocations; none may hang.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1e-2,sites=3,report=parent.txt" } */
/* { dg-timeout 120 } */
/* The SEGV child's store through a null pointer is meant to fault: UBSan
   would stop it first; and ASan's SIGSEGV handler, which memprof leaves
   alone as it leaves any handler, would report it and exit with 1.  */
/* { dg-additional-options "-fno-sanitize=null" } */
/* { dg-set-target-env-var ASAN_OPTIONS "handle_segv=0" } */

#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/mptest.h"

#define N 123

enum how { ABORT, SEGV, TERM, UNDERSCORE_EXIT, HANDLED };

static unsigned line_child, line_thread;
static volatile sig_atomic_t handled;
static atomic_int spun;		/* the thread has allocated */

/* N blocks of 1000 bytes, kept; with N 0, only the site's line, for the
   parent.  */
static void
child_allocate (int n)
{
  for (int i = 0; i <= n; i++)
    {
      char *p = i < n ? malloc (1000) : NULL; line_child = __LINE__;
      __asm__ volatile ("" : : "r" (p) : "memory");
    }
}

static void *
spin (void *arg)
{
  for (;;)
    {
      char *p = arg ? malloc (40) : NULL; line_thread = __LINE__;
      __asm__ volatile ("" : : "r" (p) : "memory");
      free (p);
      if (!arg)
        return NULL;
      atomic_store (&spun, 1);
    }
}

static void
on_usr (int sig)
{
  (void) sig;
  handled = 1;
}

static void
die (enum how how)
{
  child_allocate (N);
  pthread_t t;
  pthread_create (&t, NULL, spin, &t);
  /* The thread's site in the counts, however busy the machine.  */
  while (!atomic_load (&spun))
    sched_yield ();
  usleep (20000);
  volatile int *volatile nowhere = NULL;
  switch (how)
    {
    case ABORT: abort ();
    case SEGV: *nowhere = 1; break;
    case TERM: kill (getpid (), SIGTERM); break;
    case UNDERSCORE_EXIT: _exit (3);
    case HANDLED:
      signal (SIGHUP, on_usr);
      kill (getpid (), SIGHUP);
      _exit (handled ? 4 : 5);
    }
  pause ();
}

/* Run a child that dies HOW, its stderr in NAME; return its status.  */
static int
run (enum how how, const char *name)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      int fd = open (name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2 (fd, 2);
      die (how);
    }
  int status = -1;
  CHECK (pid > 0 && waitpid (pid, &status, 0) == pid);
  return status;
}

static char text[1 << 16];

static const char *
slurp (const char *name)
{
  FILE *f = fopen (name, "r");
  size_t n = f ? fread (text, 1, sizeof text - 1, f) : 0;
  if (f)
    fclose (f);
  text[n] = '\0';
  return text;
}

/* The child died by SIG, and said so with its counts.  */
static void
check_summary (int status, int sig, const char *name)
{
  CHECK (WIFSIGNALED (status) && WTERMSIG (status) == sig);
  const char *s = slurp (name);
  char want[256];
  snprintf (want, sizeof want, " killed by signal %d (SIG%s); its counts "
            "at that moment:\nnumAllocate:", sig, sigabbrev_np (sig));
  CHECK (strstr (s, want) != NULL);
  snprintf (want, sizeof want, "dying.c(%u): [numAllocate:%d, "
            "bytesAllocated:%d, numDeallocate:0]  malloc in ",
            line_child, N, N * 1000);
  CHECK (strstr (s, want) != NULL);
  snprintf (want, sizeof want, "dying.c(%u): [numAllocate:", line_thread);
  CHECK (strstr (s, want) != NULL);
}

int
main (void)
{
  child_allocate (0);
  spin (NULL);
  check_summary (run (ABORT, "abort.err"), SIGABRT, "abort.err");
  check_summary (run (SEGV, "segv.err"), SIGSEGV, "segv.err");
  check_summary (run (TERM, "term.err"), SIGTERM, "term.err");
  int status = run (UNDERSCORE_EXIT, "exit.err");
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 3);
  CHECK_EQ (strlen (slurp ("exit.err")), 0);
  status = run (HANDLED, "handled.err");
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 4);
  CHECK_EQ (strlen (slurp ("handled.err")), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
