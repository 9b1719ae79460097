/* output.c -- the report and its other forms, written at exit.

   MEMPROF's report key sends the text report to stderr or a file; the
   pprof, folded, json and html keys each ask for a file of their own.
   Every path is the process's own: `%p' in it becomes the pid (and `%%'
   a `%').  A forked child runs the atexit handlers its parent registered
   and so writes its own report; given a path without `%p', it appends
   `.PID' to it, so that it never clobbers its parent's file, which keeps
   the name it was given.

   The JSON report is also the data of the HTML page: it is made once and
   written to both files through a stream (fopencookie) that copies what
   it is given to each.

   A file that cannot be opened or written gets one warning naming it and
   the reason; the other files are still written, and the text report
   goes to stderr instead.  */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "config.h"
#include "output.h"

pid_t mp_start_pid;

/* Open PATH, expanded, for WHAT; NULL after a warning, which ends with
   THEN.  */
static FILE *
open_output (const char *path, const char *what, const char *then,
             char **name)
{
  *name = mp_config_path (path, (long) getpid (),
                          getpid () != mp_start_pid);
  if (*name == NULL)
    {
      mp_warn ("out of memory for the name of the %s '%s'%s", what, path,
               then);
      return NULL;
    }
  FILE *out = fopen (*name, "w");
  if (out == NULL)
    {
      mp_warn ("cannot write the %s to '%s': %s%s", what, *name,
               strerror (errno), then);
      free (*name);
    }
  return out;
}

/* Close OUT, NAME's stream for WHAT, with a warning if anything written
   to it was lost (ERR: what the writer said).  */
static void
close_output (FILE *out, char *name, const char *what, int err)
{
  if (ferror (out) && err == 0)
    err = errno ? errno : EIO;
  if (fclose (out) != 0 && err == 0)
    err = errno;
  if (err != 0)
    mp_warn ("cannot write the %s to '%s': %s", what, name, strerror (err));
  free (name);
}

/* Write the form WHAT with WRITE to PATH, if there is one.  */
static void
write_form (const char *path, const char *what, int (*write) (FILE *))
{
  char *name;
  FILE *out = path ? open_output (path, what, "", &name) : NULL;
  if (out == NULL)
    return;
  errno = 0;
  int err = write (out) != 0 ? (errno ? errno : ENOMEM) : 0;
  close_output (out, name, what, err);
}

/* A stream that copies to both of `outs' that are not NULL; each keeps
   its own error, for close_output.  */
static ssize_t
copy_write (void *cookie, const char *buf, size_t size)
{
  FILE **outs = cookie;
  for (int i = 0; i < 2; i++)
    if (outs[i])
      fwrite_unlocked (buf, 1, size, outs[i]);
  return (ssize_t) size;
}

/* Whether A and B, either NULL, are open on the same file.  */
static int
same_file (FILE *a, FILE *b)
{
  struct stat x, y;
  return a && b && fstat (fileno (a), &x) == 0 && fstat (fileno (b), &y) == 0
         && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The JSON report to the json path and into the HTML page at the html
   path, whichever there are.  */
static void
write_json_forms (void)
{
  static const char *const what[2] = { "JSON report", "HTML report" };
  const char *paths[2] = { mp_config.json_path, mp_config.html_path };
  char *names[2];
  FILE *outs[2];
  for (int i = 0; i < 2; i++)
    outs[i] = paths[i] ? open_output (paths[i], what[i], "", &names[i]) : NULL;
  if (same_file (outs[0], outs[1]))
    {
      fclose (outs[0]);         /* the page holds the report anyway */
      free (names[0]);
      outs[0] = NULL;
    }
  if (outs[0] == NULL && outs[1] == NULL)
    return;
  const char *tail = outs[1] ? mp_html_head (outs[1]) : "";
  FILE *json = fopencookie (outs, "w", (cookie_io_functions_t) {
                              .write = copy_write });
  errno = 0;
  int err = json == NULL || mp_write_json (json) != 0
            ? (errno ? errno : ENOMEM) : 0;
  if (json && fclose (json) != 0 && err == 0)
    err = errno;
  if (outs[1])
    fputs (tail, outs[1]);
  for (int i = 0; i < 2; i++)
    if (outs[i])
      close_output (outs[i], names[i], what[i], err);
}

static void
write_report (void)
{
  const char *path = mp_config.report_path;
  if (path && path[0] == '\0')
    return;
  char *name;
  FILE *out = path ? open_output (path, "report", "; writing it to stderr",
                                  &name)
                    : NULL;
  if (out == NULL)
    {
      mp_report (stderr);
      return;
    }
  mp_report (out);
  close_output (out, name, "report", 0);
}

void
mp_report_at_exit (void)
{
  mp_deliver (mp_self ());      /* postponed calls are not lost */
  write_report ();
  write_form (mp_config.pprof_path, "pprof profile", mp_write_pprof);
  write_form (mp_config.folded_path, "folded stacks", mp_write_folded);
  write_json_forms ();
}
