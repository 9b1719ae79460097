/* A forked child writes its own log, PATH.PID, as the other outputs do
   (its path has no %p): the parent's events are not in it, the
   child's are not in the parent's, and both files are whole.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=log.json,report=none" } */

#include <sys/wait.h>
#include <unistd.h>
#include <gc.h>
#include "../lib/mptest.h"

/* Write the lines a log must hold to NAME.  */
static void
expect (const char *name, long minor, int forced)
{
  FILE *f = fopen (name, "w");
  fprintf (f, "span minor %ld\nforced mp_minor %d\npids 1\n", minor, forced);
  fclose (f);
}

int
main (void)
{
  GC_INIT ();
  mp_minor ();
  long before = mpt_collections ();
  pid_t child = fork ();
  if (child == 0)
    {
      mp_minor ();
      mp_minor ();
      expect ("expect-child.txt", mpt_collections () - before, 2);
      exit (0);
    }
  int status;
  CHECK_EQ (waitpid (child, &status, 0), child);
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  char name[64];
  snprintf (name, sizeof name, "log.json.%ld", (long) child);
  CHECK_EQ (rename (name, "child.json"), 0);
  mp_minor ();
  expect ("expect.txt", mpt_collections (), 2);
  mp_eventlog_pause ();
  return mpt_done ();
}

/* { dg-final { scan-eventlog log.json "^expected: ok$" expect.txt } } */
/* { dg-final { scan-eventlog log.json "^balanced$" } } */
/* { dg-final { scan-eventlog child.json "^expected: ok$" expect-child.txt } } */
/* { dg-final { scan-eventlog child.json "^parsed \[0-9\]+ events, closed$" } } */
/* { dg-final { scan-eventlog child.json "^balanced$" } } */
