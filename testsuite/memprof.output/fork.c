/* Each process writes its own files.  A forked child that exits runs
   the report too: its text report, given a path without %p, goes to
   PATH.PID, and its JSON, given a path with %p, to its own name; the
   parent's files keep their names and the parent's numbers.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=out.txt,json=j-%p.json,sections=alloc" } */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/mptest.h"

void *volatile sink;

static void
allocate (int n)
{
  for (int i = 0; i < n; i++)
    {
      sink = malloc (8);
      free (sink);
    }
}

/* Whether the file NAME holds TEXT.  */
static int
holds (const char *name, const char *text)
{
  static char buf[1 << 16];
  FILE *f = fopen (name, "r");
  if (f == NULL)
    return 0;
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  return strstr (buf, text) != NULL;
}

int
main (void)
{
  allocate (10);
  fflush (stdout);
  pid_t child = fork ();
  CHECK (child >= 0);
  if (child == 0)
    {
      allocate (5);
      exit (0);
    }
  int status;
  CHECK (waitpid (child, &status, 0) == child);
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  char name[64], text[64];
  snprintf (name, sizeof name, "out.txt.%ld", (long) child);
  CHECK (holds (name, "\nnumAllocate:15\n"));
  snprintf (name, sizeof name, "j-%ld.json", (long) child);
  snprintf (text, sizeof text, "\"pid\":%ld,", (long) child);
  CHECK (holds (name, text));
  CHECK (holds (name, "{\"numAllocate\":15,"));
  /* The child wrote nothing under the parent's names.  */
  CHECK (access ("out.txt", F_OK) != 0);
  snprintf (name, sizeof name, "j-%ld.json", (long) getpid ());
  CHECK (access (name, F_OK) != 0);
  allocate (1);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.txt "^numAllocate:11$" } } */
