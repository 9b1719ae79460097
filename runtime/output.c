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

   A file is never written through its name, which someone else may
   have made a symlink to a file of ours, nor left half-written under
   it: it goes to a new temporary file beside it, NAME.tmpXXXXXX
   (O_CREAT|O_EXCL, mode 0666 less the umask), which is flushed and
   closed, then renamed over NAME.  So a symlink at NAME is replaced,
   not followed, and a file that cannot be written whole (a full disk,
   a write error, RLIMIT_FSIZE) is removed, NAME keeping what it had.  A
   fatal signal meanwhile removes the temporary files too (fatal.c), and
   SIGXFSZ, whose default action would kill the process at exit for a
   file past RLIMIT_FSIZE, is ignored while the files are written if the
   program left it at its default, so that the write fails instead.

   Written in place, as before, is a NAME that is already a character
   device or a FIFO, or the file that stdout or stderr is open on
   (/dev/null, a terminal, a pipe, /dev/stdout): such a file cannot be
   half-replaced, and replacing /dev/stdout would break the system's.

   A file that cannot be opened or written gets one warning naming it and
   the reason; the other files are still written, and the text report
   goes to stderr instead, whole.  */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "config.h"
#include "eventlog.h"
#include "init.h"
#include "output.h"
#include "own.h"
#include "index.h"
#include "sample.h"

pid_t mp_start_pid;

enum form { REPORT, PPROF, FOLDED, JSON, HTML, N_FORMS };

static const char *const form_names[N_FORMS] = {
  "report", "pprof profile", "folded stacks", "JSON report", "HTML report"
};

/* The temporary file of each form, for the fatal signals' handler: while
   `live' is 1, `name' is complete and names a file of ours.  Only the
   thread that exits writes them, each once; any thread's handler may
   read them (mp_output_remove_temps).  */
static struct temp
{
  char name[PATH_MAX];
  atomic_int live;
} temps[N_FORMS];

/* A file being written, through a stream of its own (fopencookie) that
   keeps the first error of write(2) or close(2): stdio keeps only that
   there was one, and errno is long overwritten when the file is closed.  */
struct output
{
  enum form form;
  char *name;                   /* the expanded path, malloc'ed */
  FILE *out;
  char *buffer;                 /* out's, from mp_own_map; NULL: stdio's */
  struct temp *temp;            /* NULL: written in place */
  int fd;
  int err;                      /* the first errno of a write, or 0 */
};

/* Whether ST is a file to write in place: see above.  */
static int
is_in_place (const struct stat *st)
{
  if (S_ISCHR (st->st_mode) || S_ISFIFO (st->st_mode))
    return 1;
  struct stat fd;
  for (int i = STDOUT_FILENO; i <= STDERR_FILENO; i++)
    if (fstat (i, &fd) == 0 && fd.st_dev == st->st_dev
        && fd.st_ino == st->st_ino)
      return 1;
  return 0;
}

/* See output.h.  What the name leads to is checked again once open, in
   case it changed meanwhile; without O_CREAT or O_TRUNC, the open alone
   changed nothing.  It is written after what the program's stdout and
   stderr still buffer, which exit would flush after the report.  */
int
mp_output_open_in_place (const char *name)
{
  struct stat st;
  if (stat (name, &st) != 0 || !is_in_place (&st))
    return -1;
  fflush (stdout);
  fflush (stderr);
  int fd = open (name, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
  if (fd >= 0 && (fstat (fd, &st) != 0 || !is_in_place (&st)))
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

/* Six letters or digits, from the kernel's randomness if it has some
   now: anyone may guess them, so O_EXCL is what makes the file ours.  */
static void
random_suffix (char out[7], unsigned attempt)
{
  static const char alphabet[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  uint64_t r;
  if (getrandom (&r, sizeof r, GRND_NONBLOCK) != sizeof r)
    r = mp_hash_address ((uintptr_t) (mp_random_key + attempt));
  for (int i = 0; i < 6; i++, r /= sizeof alphabet - 1)
    out[i] = alphabet[r % (sizeof alphabet - 1)];
  out[6] = '\0';
}

int
mp_output_create_beside (const char *name, char *temp, size_t size)
{
  for (unsigned attempt = 0; attempt < 100; attempt++)
    {
      char suffix[7];
      random_suffix (suffix, attempt);
      int n = snprintf (temp, size, "%s.tmp%s", name, suffix);
      if (n < 0 || (size_t) n >= size)
        {
          errno = ENAMETOOLONG;
          return -1;
        }
      int fd = open (temp, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC,
                     0666);
      if (fd >= 0 || errno != EEXIST)
        return fd;
    }
  return -1;
}

/* A new file NAME.tmpXXXXXX, named in T, which it makes live; its
   descriptor, or -1 with errno set.  */
static int
make_temp (const char *name, struct temp *t)
{
  int fd = mp_output_create_beside (name, t->name, sizeof t->name);
  if (fd >= 0)
    atomic_store (&t->live, 1);
  return fd;
}

/* Remove T's file, unless RENAMED already put it in place.  */
static void
end_temp (struct temp *t, int renamed)
{
  if (!renamed)
    unlink (t->name);
  atomic_store (&t->live, 0);
}

void
mp_output_remove_temps (void)
{
  for (int i = 0; i < N_FORMS; i++)
    if (atomic_load (&temps[i].live))
      unlink (temps[i].name);
}

/* PATH expanded for this process, for FORM; NULL after a warning, which
   ends with THEN.  */
static char *
output_name (const char *path, enum form form, const char *then)
{
  char *name = mp_config_path (path, (long) getpid (),
                               getpid () != mp_start_pid);
  if (name == NULL)
    mp_warn ("out of memory for the name of the %s '%s'%s", form_names[form],
             path, then);
  return name;
}

static ssize_t
output_write (void *cookie, const char *buf, size_t size)
{
  struct output *o = cookie;
  size_t done = 0;
  while (o->err == 0 && done < size)
    {
      ssize_t n = write (o->fd, buf + done, size - done);
      if (n > 0)
        done += (size_t) n;
      else if (n == 0)
        o->err = EIO;
      else if (errno != EINTR)
        o->err = errno;
    }
  return o->err == 0 ? (ssize_t) size : 0;
}

static int
output_close (void *cookie)
{
  struct output *o = cookie;
  if (close (o->fd) != 0 && o->err == 0)
    o->err = errno;
  return o->err == 0 ? 0 : -1;
}

/* The size of each form's stream buffer, so that a form of a small
   program goes out in one write(2), not one per BUFSIZ (an HTML page of
   35 kB took four); its pages are touched only as far as it is written
   to.  The buffer is mapped while the form is written, not static:
   Boehm scans the program's data and bss at every collection, and
   counts their size in its estimate of the work a collection costs,
   which sets how much the program allocates between two (see
   GC_free_space_divisor).  The runtime's 440 kB there (these buffers,
   timeline.c's points, foreign.c's buckets) made bench/bt-gc.c collect
   73 times at depth 15 where the plain build collects 53, 57 at depth
   17 where it collects 91: the runtime changed the program's heap.
   Nor is it malloc'ed: a 64 kB malloc first consolidates the blocks the
   program last freed (own.h), 19M instructions at the exit of
   bt-malloc 16; the report's next large request, index.c's first
   realloc, still pays them today.  Without memory, stdio's own buffer
   does.  */
#define BUFFER_SIZE (64 * 1024)

/* Open *O for FORM at NAME, which it takes; 0, or -1 after a warning
   that ends with THEN.  */
static int
open_output (struct output *o, enum form form, char *name, const char *then)
{
  *o = (struct output) { form, name, NULL, NULL, NULL,
                         mp_output_open_in_place (name), 0 };
  if (o->fd < 0)
    {
      o->temp = &temps[form];
      o->fd = make_temp (name, o->temp);
    }
  if (o->fd >= 0
      && (o->out = fopencookie (o, "w", (cookie_io_functions_t) {
                                  .write = output_write,
                                  .close = output_close })) != NULL)
    {
      o->buffer = mp_own_map (BUFFER_SIZE);
      if (o->buffer != NULL)
        setvbuf (o->out, o->buffer, _IOFBF, BUFFER_SIZE);
      return 0;
    }
  int err = errno;
  if (o->fd >= 0)
    close (o->fd);
  if (o->fd >= 0 && o->temp != NULL)
    end_temp (o->temp, 0);
  mp_warn ("cannot write the %s to '%s': %s%s", form_names[form], name,
           strerror (err), then);
  free (name);
  return -1;
}

/* Close *O, then put it in place, unless its writer said ERR (an errno)
   or anything written was lost: then 0, or -1 after a warning that ends
   with THEN.  */
static int
close_output (struct output *o, int err, const char *then)
{
  int failed = fclose (o->out) != 0;
  mp_own_unmap (o->buffer, BUFFER_SIZE);
  if (err == 0)
    err = o->err ? o->err : failed ? EIO : 0;
  if (o->temp != NULL)
    {
      if (err == 0 && rename (o->temp->name, o->name) != 0)
        err = errno;
      end_temp (o->temp, err == 0);
    }
  if (err != 0)
    mp_warn ("cannot write the %s to '%s': %s%s", form_names[o->form],
             o->name, strerror (err), then);
  free (o->name);
  return err != 0 ? -1 : 0;
}

/* Write FORM with WRITE to PATH, if there is one: span E of the event
   log.  */
static void
write_form (const char *path, enum form form, int (*write) (FILE *),
            enum mp_event e)
{
  char *name = path ? output_name (path, form, "") : NULL;
  struct output o;
  if (name == NULL || open_output (&o, form, name, "") != 0)
    return;
  int ev = mp_ev_begin (e);
  errno = 0;
  int err = write (o.out) != 0 ? (errno ? errno : ENOMEM) : 0;
  close_output (&o, err, "");
  mp_ev_end (e, ev);
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

/* Stat the directory that NAME is in.  */
static int
stat_directory (const char *name, struct stat *st)
{
  const char *slash = strrchr (name, '/');
  if (slash == NULL)
    return stat (".", st);
  char *dir = mp_strndup (name, slash == name ? 1 : (size_t) (slash - name));
  int rc = dir ? stat (dir, st) : -1;
  free (dir);
  return rc;
}

/* Whether the names A and B are one: the same last component, in the
   same directory.  */
static int
same_name (const char *a, const char *b)
{
  const char *la = strrchr (a, '/'), *lb = strrchr (b, '/');
  struct stat x, y;
  return strcmp (la ? la + 1 : a, lb ? lb + 1 : b) == 0
         && stat_directory (a, &x) == 0 && stat_directory (b, &y) == 0
         && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The JSON report to the json path and into the HTML page at the html
   path, whichever there are.  */
static void
write_json_forms (void)
{
  const char *paths[2] = { mp_config.json_path, mp_config.html_path };
  char *names[2];
  for (int i = 0; i < 2; i++)
    names[i] = paths[i] ? output_name (paths[i], JSON + i, "") : NULL;
  if (names[0] && names[1] && same_name (names[0], names[1]))
    {
      free (names[0]);          /* the page holds the report anyway */
      names[0] = NULL;
    }
  struct output o[2];
  FILE *outs[2] = { NULL, NULL };
  for (int i = 0; i < 2; i++)
    if (names[i] && open_output (&o[i], JSON + i, names[i], "") == 0)
      outs[i] = o[i].out;
  if (outs[0] == NULL && outs[1] == NULL)
    return;
  int ev = mp_ev_begin (MP_EV_WRITE_JSON);
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
      close_output (&o[i], err, "");
  mp_ev_end (MP_EV_WRITE_JSON, ev);
}

/* The text report to its file, or else to stderr, whole: a file cut
   short is not kept.  */
static void
write_report (void)
{
  static const char then[] = "; writing it to stderr";
  const char *path = mp_config.report_path;
  if (path && path[0] == '\0')
    return;
  int ev = mp_ev_begin (MP_EV_WRITE_TEXT);
  char *name = path ? output_name (path, REPORT, then) : NULL;
  struct output o;
  if (name && open_output (&o, REPORT, name, then) == 0)
    {
      mp_report (o.out);
      if (close_output (&o, 0, then) == 0)
        {
          mp_ev_end (MP_EV_WRITE_TEXT, ev);
          return;
        }
    }
  mp_report (stderr);
  mp_ev_end (MP_EV_WRITE_TEXT, ev);
}

void
mp_report_at_exit (void)
{
  mp_deliver (mp_self ());      /* postponed calls are not lost */
  int ev = mp_ev_begin (MP_EV_EXIT_REPORT);
  mp_quiet_begin ();            /* stdio's, zlib's, libdw's: not counted */
  struct sigaction ignore = { .sa_handler = SIG_IGN }, old;
  int ignoring = sigaction (SIGXFSZ, NULL, &old) == 0
                 && old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO)
                 && sigaction (SIGXFSZ, &ignore, NULL) == 0;
  write_report ();
  write_form (mp_config.pprof_path, PPROF, mp_write_pprof, MP_EV_WRITE_PPROF);
  write_form (mp_config.folded_path, FOLDED, mp_write_folded,
              MP_EV_WRITE_FOLDED);
  write_json_forms ();
  if (ignoring)
    sigaction (SIGXFSZ, &old, NULL);
  mp_quiet_end ();
  mp_ev_end (MP_EV_EXIT_REPORT, ev);
}
