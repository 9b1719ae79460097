/* eventlog.c -- the event log: OCaml's eventlog (OCAML_EVENTLOG_ENABLED,
   Gc.eventlog_pause, Gc.eventlog_resume), written in the Chrome
   trace-event format, which Perfetto and chrome://tracing open.

   The file is a JSON array of events, `[' then one event per line, each
   after a comma but the first: a crash leaves a file that the closing
   `]' the format allows to be missing makes whole, and exit adds it.
   Spans are `B' and `E' events on the thread that ran them; a
   collection's phases are spans of the thread that collected: major
   (full collections), minor (every collection, as in OCaml), mark and
   reclaim, with the timestamps Boehm's events gave.  Instants (`i') and
   a counter (`C') tell heap growth.

   Design.  Events are written as they happen, through a buffer per
   thread of BUFFER_SIZE bytes, which goes to the file when it is full,
   when its thread ends, at the end of each collection (so the file is
   never more than a collection behind the collector), at
   mp_eventlog_pause, at exit, and at a fatal signal, as far as it can.
   Collections arrive in Boehm's callbacks, holding the GC lock, with
   the world stopped during marking: another thread may be stopped
   anywhere, holding malloc's lock or stdio's.  So nothing here
   allocates but with mmap, takes a lock of libc, or calls stdio; a
   collection's events are kept in the collector's statics until its
   reclaim ends, and written then, with the world running.

   A buffer's `busy' flag is its lock: its owner takes it to append, and
   anyone to write the buffer out.  The collector appends to its own
   buffer only, and another thread holds that lock only to write it out
   (flush_foreign), with every signal blocked, so that Boehm cannot stop
   it there: the collector, which stops the world before it appends,
   never waits for a thread that waits for the world.  The owner waits
   for such a writer, which waits for nothing but write(2).

   The file is opened when the runtime starts, as the other outputs are
   named (output.c): %p is the pid, and a forked child given a path
   without %p writes PATH.PID, a log of its own.  Being written as it
   goes, it cannot be renamed into place at the end: a new file beside
   it, made with O_EXCL (mode 0666 less the umask), is renamed over PATH
   at once, before anything is written.  So a symlink at PATH is
   replaced, not followed, and the file written is one the process made;
   a FIFO, a character device or the file stderr or stdout is on is
   written in place.  A file that cannot be made, or written, gets one
   warning, and the program runs on without a log.  In secure mode
   MEMPROF is not read, and there is no log.  */

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "config.h"
#include "eventlog.h"
#include "line.h"
#include "output.h"

#include <gc.h>                 /* the event names alone */

#define BUFFER_SIZE 4096        /* a page: one write(2) per flush */

struct buffer
{
  struct buffer *next;          /* registry link, immutable once pushed */
  atomic_int claimed;           /* 1 while a live thread owns it */
  atomic_int busy;              /* the lock of len and data: see above */
  long tid;                     /* the owner's: set when claimed */
  size_t len;                   /* bytes of whole events in data */
  char data[BUFFER_SIZE];
};

atomic_int mp_eventlog_state;

/* Every buffer ever made, newest first, pushed without a lock: the
   collector may make one.  Buffers are reused, never freed.  */
static _Atomic (struct buffer *) buffers;

/* The calling thread's buffer, or NULL before its first event.  */
static __thread struct buffer *mine __attribute__ ((tls_model ("initial-exec")));

/* The file, its process and the time origin: set when the log opens
   (mp_eventlog_setup, or a forked child), read-only otherwise.  */
static int log_fd = -1;
static long log_pid;
static struct timespec origin;

/* 1 once a write failed and was told.  */
static atomic_int told_failure;

static const struct
{
  const char *name, *cat;
} events[MP_EV_COUNT] = {
  [MP_EV_FORCED] = { "forced", "gc" },
  [MP_EV_COMPACTION] = { "compaction", "gc" },
  [MP_EV_FINALISE] = { "finalisers", "gc" },
  [MP_EV_ALLOC_MINOR] = { "alloc_minor", "tracker" },
  [MP_EV_ALLOC_MAJOR] = { "alloc_major", "tracker" },
  [MP_EV_PROMOTE] = { "promote", "tracker" },
  [MP_EV_DEALLOC_MINOR] = { "dealloc_minor", "tracker" },
  [MP_EV_DEALLOC_MAJOR] = { "dealloc_major", "tracker" },
  [MP_EV_EXIT_REPORT] = { "exit report", "report" },
  [MP_EV_WRITE_TEXT] = { "text", "report" },
  [MP_EV_WRITE_PPROF] = { "pprof", "report" },
  [MP_EV_WRITE_FOLDED] = { "folded", "report" },
  [MP_EV_WRITE_JSON] = { "json", "report" },
};

/* Nanoseconds since the log opened.  */
static uint64_t
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (uint64_t) (t.tv_sec - origin.tv_sec) * 1000000000u
         + (uint64_t) t.tv_nsec - (uint64_t) origin.tv_nsec;
}

/* ---- writing ------------------------------------------------------------ */

/* Stop the log after a write of it failed with ERR: it is cut there.  */
static void
fail (int err)
{
  atomic_store (&mp_eventlog_state, MP_EV_OFF);
  if (!atomic_exchange (&told_failure, 1))
    mp_warn_raw ("cannot write the event log: %s; it stops here",
                 strerror (err));
}

/* Write LEN bytes of TEXT to the file, whole, keeping errno.  */
static void
write_all (const char *text, size_t len)
{
  int saved = errno;
  size_t done = 0;
  while (done < len)
    {
      ssize_t n = write (log_fd, text + done, len - done);
      if (n > 0)
        done += (size_t) n;
      else if (n < 0 && errno == EINTR)
        continue;
      else
        {
          fail (n < 0 ? errno : EIO);
          break;
        }
    }
  errno = saved;
}

/* Write B's events out, holding its lock.  */
static void
write_out (struct buffer *b)
{
  if (b->len > 0 && atomic_load (&mp_eventlog_state) != MP_EV_OFF)
    write_all (b->data, b->len);
  b->len = 0;
}

/* Take the lock of B, the caller's own buffer.  */
static void
lock_own (struct buffer *b)
{
  while (atomic_exchange_explicit (&b->busy, 1, memory_order_acquire))
    sched_yield ();
}

static void
unlock (struct buffer *b)
{
  atomic_store_explicit (&b->busy, 0, memory_order_release);
}

/* Write B out from any thread, with every signal blocked while holding
   its lock (see the design).  */
static void
flush_foreign (struct buffer *b)
{
  sigset_t all, old;
  sigfillset (&all);
  for (;;)
    {
      pthread_sigmask (SIG_BLOCK, &all, &old);
      if (!atomic_exchange_explicit (&b->busy, 1, memory_order_acquire))
        break;
      pthread_sigmask (SIG_SETMASK, &old, NULL);
      sched_yield ();
    }
  write_out (b);
  unlock (b);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
}

static void
flush_all (void)
{
  for (struct buffer *b = atomic_load (&buffers); b; b = b->next)
    flush_foreign (b);
}

static void
flush_own (struct buffer *b)
{
  lock_own (b);
  write_out (b);
  unlock (b);
}

/* Append L, whole events, to B, the caller's buffer, if the log takes
   them; 1 if it did.  */
static int
append (struct buffer *b, const struct mp_line *l)
{
  lock_own (b);
  int state = atomic_load (&mp_eventlog_state);
  int open = state == MP_EV_RUNNING || state == MP_EV_PAUSED;
  if (open && b->len + l->n > BUFFER_SIZE)
    write_out (b);
  if (open)
    {
      memcpy (b->data + b->len, l->buf, l->n);
      b->len += l->n;
    }
  unlock (b);
  return open;
}

/* The calling thread's buffer, claimed or made on its first event; NULL
   if mmap refuses one.  */
static struct buffer *
own_buffer (void)
{
  struct buffer *b = mine;
  if (MP_LIKELY (b != NULL))
    return b;
  for (b = atomic_load (&buffers); b; b = b->next)
    {
      int expected = 0;
      if (atomic_load_explicit (&b->claimed, memory_order_relaxed) == 0
          && atomic_compare_exchange_strong (&b->claimed, &expected, 1))
        break;
    }
  if (b == NULL)
    {
      b = mmap (NULL, sizeof *b, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (b == MAP_FAILED)
        return NULL;
      atomic_store (&b->claimed, 1);
      b->next = atomic_load (&buffers);
      while (!atomic_compare_exchange_weak (&buffers, &b->next, b))
        ;
    }
  b->tid = gettid ();
  mine = b;
  return b;
}

/* ---- events ------------------------------------------------------------- */

/* NS in microseconds, with three decimals.  */
static void
put_time (struct mp_line *l, uint64_t ns)
{
  char frac[5] = { '.', 0, 0, 0, 0 };
  mp_line_number (l, (int64_t) (ns / 1000));
  for (int i = 3, f = (int) (ns % 1000); i > 0; i--, f /= 10)
    frac[i] = (char) ('0' + f % 10);
  mp_line_put (l, frac);
}

/* An event PH of E's name and category at NS in thread TID, up to its
   closing brace, after what L holds.  */
static void
put_event (struct mp_line *l, char ph, const char *name, const char *cat,
           uint64_t ns, long tid)
{
  char phase[2] = { ph, 0 };
  mp_line_put (l, "\n,{\"ph\":\"");
  mp_line_put (l, phase);
  mp_line_put (l, "\",\"name\":\"");
  mp_line_put (l, name);
  mp_line_put (l, "\",\"cat\":\"");
  mp_line_put (l, cat);
  mp_line_put (l, "\",\"ts\":");
  put_time (l, ns);
  mp_line_put (l, ",\"pid\":");
  mp_line_number (l, log_pid);
  mp_line_put (l, ",\"tid\":");
  mp_line_number (l, tid);
}

int
mp_ev_begin_slow (enum mp_event e, const char *why)
{
  struct buffer *b = own_buffer ();
  if (b == NULL)
    return 0;
  struct mp_line l = { .n = 0 };
  put_event (&l, 'B', events[e].name, events[e].cat, now (), b->tid);
  if (why)
    {
      mp_line_put (&l, ",\"args\":{\"by\":\"");
      mp_line_put (&l, why);
      mp_line_put (&l, "\"}");
    }
  mp_line_put (&l, "}");
  return append (b, &l);
}

void
mp_ev_end_slow (enum mp_event e)
{
  struct buffer *b = own_buffer ();
  if (b == NULL)
    return;
  struct mp_line l = { .n = 0 };
  put_event (&l, 'E', events[e].name, events[e].cat, now (), b->tid);
  mp_line_put (&l, "}");
  append (b, &l);
}

void
mp_eventlog_heap_growth (size_t bytes)
{
  struct buffer *b = own_buffer ();
  if (b == NULL
      || atomic_load (&mp_eventlog_state) != MP_EV_RUNNING)
    return;
  struct mp_line l = { .n = 0 };
  uint64_t t = now ();
  put_event (&l, 'i', "heap growth", "gc", t, b->tid);
  mp_line_put (&l, ",\"s\":\"t\",\"args\":{\"bytes\":");
  mp_line_number (&l, (int64_t) bytes);
  mp_line_put (&l, "}}");
  put_event (&l, 'C', "heap", "gc", t, b->tid);
  mp_line_put (&l, ",\"args\":{\"bytes\":");
  mp_line_number (&l, (int64_t) bytes);
  mp_line_put (&l, "}}");
  append (b, &l);
}

/* ---- collections -------------------------------------------------------- */

/* The collection under way, as the collector saw its events: guarded by
   the GC lock.  RECORDED: the log was recording at its MARK_START.  */
static struct
{
  int recorded, major;
  uint64_t stop, mark_start, mark_end, reclaim_start;
} gc;

/* Append span event PH of NAME at NS to B, NS made later than *LAST so
   that spans that begin or end together still nest in order.  */
static void
put_phase (struct buffer *b, char ph, const char *name, uint64_t ns,
           uint64_t *last)
{
  struct mp_line l = { .n = 0 };
  *last = ns > *last ? ns : *last + 1;
  put_event (&l, ph, name, "gc", *last, b->tid);
  mp_line_put (&l, "}");
  append (b, &l);
}

/* The spans of the collection that has just ended at END, from B's
   thread, and the buffer out.  */
static void
write_collection (struct buffer *b, uint64_t end)
{
  uint64_t last = 0;
  if (gc.major)
    put_phase (b, 'B', "major", gc.stop, &last);
  put_phase (b, 'B', "minor", gc.stop, &last);
  put_phase (b, 'B', "mark", gc.mark_start, &last);
  put_phase (b, 'E', "mark", gc.mark_end, &last);
  put_phase (b, 'B', "reclaim", gc.reclaim_start, &last);
  put_phase (b, 'E', "reclaim", end, &last);
  put_phase (b, 'E', "minor", end, &last);
  if (gc.major)
    put_phase (b, 'E', "major", end, &last);
  flush_own (b);
}

void
mp_eventlog_gc (int event, int full)
{
  uint64_t t = now ();
  switch (event)
    {
    case GC_EVENT_PRE_STOP_WORLD:
      gc.stop = t;
      break;
    case GC_EVENT_MARK_START:
      /* A mark abandoned (incremental mode) has no MARK_END: the next
         MARK_START starts the collection's record again.  */
      gc.recorded = atomic_load (&mp_eventlog_state) == MP_EV_RUNNING;
      gc.major = full;
      gc.stop = gc.stop && gc.stop <= t ? gc.stop : t;
      gc.mark_start = t;
      break;
    case GC_EVENT_MARK_END:
      gc.mark_end = t;
      break;
    case GC_EVENT_RECLAIM_START:
      gc.reclaim_start = t;
      break;
    case GC_EVENT_RECLAIM_END:
      {
        struct buffer *b = gc.recorded ? own_buffer () : NULL;
        if (b)
          write_collection (b, t);
        gc.recorded = 0;
        gc.stop = 0;
        break;
      }
    default:
      break;
    }
}

/* ---- opening, pausing, closing ------------------------------------------ */

/* The log's first line, of the file just opened: the array, and the
   process's name, as Perfetto shows it.  */
static void
write_head (void)
{
  struct mp_line l = { .n = 0 };
  char name[17];
  mp_line_put (&l, "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":");
  mp_line_number (&l, log_pid);
  mp_line_put (&l, ",\"tid\":");
  mp_line_number (&l, log_pid);
  mp_line_put (&l, ",\"args\":{\"name\":\"");
  snprintf (name, sizeof name, "%s", program_invocation_short_name);
  for (char *c = name; *c; c++)
    if (*c < 0x20 || *c == '"' || *c == '\\' || (unsigned char) *c >= 0x7f)
      *c = '?';
  mp_line_put (&l, name);
  mp_line_put (&l, "\"}}");
  write_all (l.buf, l.n);
}

/* Open the log at NAME: in place, or made beside it and renamed over it
   (see the design).  The descriptor, or -1 with errno set.  */
static int
open_log (const char *name)
{
  char temp[PATH_MAX];
  int fd = mp_output_open_in_place (name);
  if (fd >= 0)
    return fd;
  fd = mp_output_create_beside (name, temp, sizeof temp);
  if (fd >= 0 && rename (temp, name) != 0)
    {
      int err = errno;
      close (fd);
      unlink (temp);
      errno = err;
      fd = -1;
    }
  return fd;
}

/* Open the log of this process, which FORKED from the one that started
   the runtime, in STATE; warn and stay off if it cannot be.  */
static void
start (int forked, int state)
{
  const char *path = mp_config.eventlog_path;
  log_pid = getpid ();
  char *name = mp_config_path (path, log_pid, forked);
  log_fd = name ? open_log (name) : -1;
  if (log_fd < 0)
    {
      mp_warn_raw ("cannot open the event log '%s': %s; running without it",
                   name ? name : path, strerror (name ? errno : ENOMEM));
      atomic_store (&mp_eventlog_state, MP_EV_OFF);
    }
  else
    {
      atomic_store (&mp_eventlog_state, state);
      write_head ();
    }
  free (name);
}

/* At exit, after the report: the last events, and the array's end.  */
static void
close_log (void)
{
  int state = atomic_load (&mp_eventlog_state);
  while ((state == MP_EV_RUNNING || state == MP_EV_PAUSED)
         && !atomic_compare_exchange_weak (&mp_eventlog_state, &state,
                                           MP_EV_CLOSED))
    ;
  if (state != MP_EV_RUNNING && state != MP_EV_PAUSED)
    return;
  flush_all ();
  write_all ("\n]\n", 3);
}

void
mp_eventlog_setup (void)
{
  if (mp_config.eventlog_path == NULL)
    return;
  clock_gettime (CLOCK_MONOTONIC, &origin);
  start (0, mp_config.eventlog_paused ? MP_EV_PAUSED : MP_EV_RUNNING);
  if (mp_eventlog_open () && atexit (close_log) != 0)
    mp_warn ("cannot register the event log's end at exit");
}

MP_API void
mp_eventlog_pause (void)
{
  int running = MP_EV_RUNNING;
  if (atomic_compare_exchange_strong (&mp_eventlog_state, &running,
                                      MP_EV_PAUSED))
    flush_all ();
}

MP_API void
mp_eventlog_resume (void)
{
  int paused = MP_EV_PAUSED;
  atomic_compare_exchange_strong (&mp_eventlog_state, &paused,
                                  MP_EV_RUNNING);
}

void
mp_eventlog_thread_exit (void)
{
  struct buffer *b = mine;
  if (b == NULL)
    return;
  flush_own (b);
  mine = NULL;
  atomic_store (&b->claimed, 0);
}

void
mp_eventlog_dying (void)
{
  if (!mp_eventlog_open ())
    return;
  for (struct buffer *b = atomic_load (&buffers); b; b = b->next)
    if (!atomic_exchange (&b->busy, 1))
      {
        write_out (b);
        unlock (b);
      }
}

/* In the child, the buffers hold the parent's events, which the parent
   writes: they are emptied, and the child, alone, opens its own log.  */
void
mp_eventlog_fork (enum mp_fork_step step)
{
  if (step != MP_FORK_CHILD || !mp_eventlog_open ())
    return;
  for (struct buffer *b = atomic_load (&buffers); b; b = b->next)
    {
      b->len = 0;
      atomic_store (&b->busy, 0);
      atomic_store (&b->claimed, b == mine);
    }
  if (mine)
    mine->tid = gettid ();
  close (log_fd);
  start (1, atomic_load (&mp_eventlog_state));
}
