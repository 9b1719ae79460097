/* fatal.c -- what is saved when the program dies by a signal.

   How a program ends decides what report it gets:

     exit, or return from main   the whole report (atexit, init.c);
     _exit, _Exit                none: they exist to leave without exit
                                 processing, as a forked child that failed
                                 to exec must, and memprof honours that as
                                 stdio does;
     a signal that kills         (abort's SIGABRT, SIGSEGV, SIGBUS, SIGILL,
                                 SIGFPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT)
                                 the exact counts, written here;
     SIGKILL                     none: nothing can run.

   A dying program may have stopped anywhere: inside malloc, holding
   stdio's locks or the runtime's, in the middle of the collector.  The
   whole report needs all of them, so it cannot be written.  The counts
   can: they are read without a lock (the thread registry and the site
   table only grow, internal.h), and formatted here on the stack with
   write(2), which is async-signal-safe.  So the summary holds the global
   counters and the largest sites (up to MEMPROF's sites=, at most
   MAX_SITES) by bytes allocated.  It goes to stderr, unless report=none;
   the sampled profiles, which need the symboliser, are lost.  A process
   killed while it writes its files at exit removes their temporary
   files (output.c), with unlink(2), which is async-signal-safe too: the
   names keep what they had.

   The handlers are installed when the runtime starts, only for signals
   whose action is still the default: a signal the program ignores or
   handles stays its own.  A handler writes, restores the default action
   and raises the signal again, so the process dies as it would have,
   core dump and exit status included.  */

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "sites.h"
#include "config.h"
#include "fatal.h"
#include "output.h"
#include "report.h"

#define MAX_SITES 64

static const int fatal_signals[] = {
  SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT,
};

/* 1 once a thread writes the summary: a fatal signal in another thread
   then waits for the first one's to end the process.  */
static atomic_int dying;

/* A line being formatted, on the stack.  */
struct line
{
  char buf[512];
  size_t n;
};

static void
put (struct line *l, const char *s)
{
  size_t len = strlen (s);
  if (len > sizeof l->buf - l->n)
    len = sizeof l->buf - l->n;
  memcpy (l->buf + l->n, s, len);
  l->n += len;
}

static void
put_number (struct line *l, int64_t v)
{
  char digits[24], *d = digits + sizeof digits;
  uint64_t u = v < 0 ? -(uint64_t) v : (uint64_t) v;
  *--d = '\0';
  do
    *--d = (char) ('0' + u % 10);
  while ((u /= 10) != 0);
  if (v < 0)
    *--d = '-';
  put (l, d);
}

static void
flush (struct line *l)
{
  put (l, "\n");
  ssize_t w = write (STDERR_FILENO, l->buf, l->n);
  (void) w;                     /* nowhere to report it */
  l->n = 0;
}

/* The MAX (at most MAX_SITES) sites with the most bytes allocated,
   largest first, into IDS; return how many.  */
static size_t
largest_sites (unsigned ids[MAX_SITES], size_t max)
{
  int64_t bytes[MAX_SITES];
  size_t n = 0;
  unsigned count = mp_site_count ();
  for (unsigned id = 1; id <= count; id++)
    {
      int64_t c[SC_COUNT];
      mp_site_sum (id, c);
      int64_t b = c[SC_BYTES_ALLOCATED];
      if (c[SC_NUM_ALLOCATE] == 0 || (n == max && b <= bytes[n - 1]))
        continue;
      size_t at = n < max ? n++ : max - 1;  /* the last one drops out */
      for (; at > 0 && bytes[at - 1] < b; at--)
        {
          ids[at] = ids[at - 1];
          bytes[at] = bytes[at - 1];
        }
      ids[at] = id;
      bytes[at] = b;
    }
  return n;
}

static void
write_site (struct line *l, unsigned id)
{
  const struct mp_site *s = mp_site_by_number (id);
  int64_t c[SC_COUNT];
  mp_site_sum (id, c);
  put (l, s->file ? s->file : "<unknown>");
  put (l, "(");
  put_number (l, s->line);
  put (l, "): [numAllocate:");
  put_number (l, c[SC_NUM_ALLOCATE]);
  put (l, ", bytesAllocated:");
  put_number (l, c[SC_BYTES_ALLOCATED]);
  put (l, ", numDeallocate:");
  put_number (l, c[SC_NUM_DEALLOCATE]);
  put (l, "]  ");
  put (l, s->callee ? s->callee : "?");
  put (l, " in ");
  put (l, s->function ? s->function : "?");
  flush (l);
}

static void
write_summary (int sig)
{
  struct line l = { .n = 0 };
  put (&l, "memprof: pid ");
  put_number (&l, getpid ());
  put (&l, " killed by signal ");
  put_number (&l, sig);
  put (&l, " (SIG");
  put (&l, sigabbrev_np (sig));
  put (&l, "); its counts at that moment:");
  flush (&l);
  struct mp_alloc_stats st;
  mp_alloc_stats (&st);
  for (const struct mp_field *f = mp_alloc_fields; f->name; f++)
    {
      put (&l, f->name);
      put (&l, ":");
      put_number (&l, (int64_t) mp_field_value (f, &st));
      flush (&l);
    }
  unsigned ids[MAX_SITES];
  size_t want = mp_config.sites && mp_config.sites < MAX_SITES
                ? mp_config.sites : MAX_SITES;
  size_t n = largest_sites (ids, want);
  for (size_t i = 0; i < n; i++)
    write_site (&l, ids[i]);
}

static void
on_fatal (int sig)
{
  int saved = errno;
  if (atomic_exchange (&dying, 1))
    {
      /* Another thread is writing: let its signal end the process.  */
      sigset_t none;
      sigemptyset (&none);
      for (;;)
        sigsuspend (&none);
    }
  mp_output_remove_temps ();
  if (!(mp_config.report_path && mp_config.report_path[0] == '\0'))
    write_summary (sig);
  signal (sig, SIG_DFL);
  raise (sig);                  /* delivered when we return */
  errno = saved;
}

/* The runtime is starting (init.c).  */
void
mp_fatal_setup (void)
{
  struct sigaction sa = { .sa_handler = on_fatal, .sa_flags = SA_ONSTACK };
  sigfillset (&sa.sa_mask);
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    {
      struct sigaction old;
      if (sigaction (fatal_signals[i], NULL, &old) == 0
          && old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO))
        sigaction (fatal_signals[i], &sa, NULL);
    }
}
