/* Each verbose flag prints its messages on stderr, and only then: the
   program sets one flag at a time, does what the flag reports, and reads
   what came out.  Flags that cannot apply print nothing.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <fcntl.h>
#include <unistd.h>
#include <gc.h>
#include "../lib/mptest.h"

static char out[1 << 16];
static int saved_stderr, capture;

/* Send stderr to a fresh file.  */
static void
capture_begin (void)
{
  fflush (stderr);
  capture = open ("verbose.out", O_RDWR | O_CREAT | O_TRUNC, 0600);
  saved_stderr = dup (2);
  dup2 (capture, 2);
}

/* Put stderr back; OUT is what was written.  */
static const char *
capture_end (void)
{
  fflush (stderr);
  dup2 (saved_stderr, 2);
  close (saved_stderr);
  ssize_t n = pread (capture, out, sizeof out - 1, 0);
  close (capture);
  out[n > 0 ? n : 0] = '\0';
  return out;
}

static void *volatile big;
static void *obj;
static volatile int finalised;

static void
on_finalise (void *o, void *data)
{
  (void) o;
  (void) data;
  finalised++;
}

static __attribute__ ((noinline)) void
make_finalisable (void)
{
  obj = GC_MALLOC (32);
  mp_finalise (on_finalise, obj, NULL);
  obj = NULL;
}

/* Everything the flags report, once.  */
static void
everything (void)
{
  mp_minor ();
  mp_major_slice (0);
  mp_major ();
  /* Only a pointer to its first page keeps it, and only its first page
     must be off Boehm's black list: for a whole 64 MiB that may be
     partly black-listed, Boehm warns on stderr ("Repeated allocation of
     very large block"), which here is an unexpected line.  */
  big = GC_MALLOC_ATOMIC_IGNORE_OFF_PAGE (64 << 20);    /* the heap grows */
  big = NULL;
  clear_stack ();
  mp_compact ();                        /* and shrinks */
  MPT_SET (space_overhead, 120);
  MPT_SET (space_overhead, 80);
  make_finalisable ();
  clear_stack ();
  mp_full_major ();
}

/* Run everything with FLAGS; each of the NEED strings must be among the
   messages, and every message must be one of the flags'.  */
static void
expect (long flags, const char *const *need, size_t n_need)
{
  capture_begin ();
  MPT_SET (verbose, flags);
  everything ();
  MPT_SET (verbose, 0);
  const char *got = capture_end ();
  for (size_t i = 0; i < n_need; i++)
    if (strstr (got, need[i]) == NULL)
      {
        fprintf (stderr, "v=0x%lx: no \"%s\" in:\n%s", flags, need[i], got);
        CHECK (0);
      }
  for (const char *line = got; *line; line = strchr (line, '\n') + 1)
    {
      int known = 0;
      for (size_t i = 0; i < n_need; i++)
        known |= strncmp (line, need[i], strlen (need[i])) == 0;
      if (!known)
        {
          fprintf (stderr, "v=0x%lx: unexpected line in:\n%s", flags, got);
          CHECK (0);
          break;
        }
    }
}

#define EXPECT(flags, ...)                                              \
  do {                                                                  \
    static const char *const need[] = { __VA_ARGS__ };                  \
    expect (flags, need, sizeof need / sizeof need[0]);                 \
  } while (0)

int
main (void)
{
  GC_INIT ();
  GC_MALLOC (16);
  EXPECT (0x001, "memprof: starting a major GC cycle (collection ");
  EXPECT (0x002, "memprof: minor collection ", "memprof: major slice");
  EXPECT (0x004, "memprof: growing heap to ", "memprof: shrinking heap to ");
  EXPECT (0x010, "memprof: compacting heap (", "memprof: compaction done (");
  EXPECT (0x020, "memprof: new space_overhead: 120",
          "memprof: new space_overhead: 80");
  EXPECT (0x080, "memprof: calling finalisation functions",
          "memprof: done calling finalisation functions");
  EXPECT (0x200, "memprof: estimated overhead: ");
  CHECK_EQ (finalised, 7);     /* one per EXPECT */

  /* The flags that cannot apply, and no flag: nothing.  */
  capture_begin ();
  MPT_SET (verbose, 0x008 | 0x040 | 0x100 | 0x800 | 0x1000);
  everything ();
  MPT_SET (verbose, 0);
  everything ();
  CHECK_EQ (strlen (capture_end ()), 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
