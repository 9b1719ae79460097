/* mp_eventlog_pause and mp_eventlog_resume, as OCaml's: pause writes the
   events recorded so far to the file and records no more, resume
   records again; pausing a paused log or resuming a running one does
   nothing and returns.  A span is kept whole or dropped whole: one that
   began before the pause ends in the log, one that began while paused
   leaves nothing, however either ends.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=log.json" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

/* How many times the log file holds TEXT now.  */
static int
in_file (const char *text)
{
  FILE *f = fopen ("log.json", "r");
  static char buf[1 << 20];
  size_t n = f ? fread (buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose (f);
  buf[n] = '\0';
  int hits = 0;
  for (char *p = buf; (p = strstr (p, text)); p++)
    hits++;
  return hits;
}

#define MINOR_BEGIN "\"ph\":\"B\",\"name\":\"minor\""
#define FORCED_END "\"ph\":\"E\",\"name\":\"forced\""

/* A tracker callback that pauses the log, or resumes it.  */
static void *
pausing (const struct mp_allocation *a, void *data)
{
  (void) a;
  if (data)
    mp_eventlog_resume ();
  else
    mp_eventlog_pause ();
  return NULL;
}

/* One GC allocation sampled by a tracker whose callback pauses the
   log, or (RESUME) resumes it.  */
static void
callback_that (int resume)
{
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_minor = pausing;
  tr.data = resume ? &tr : NULL;
  mpt_start (1, tr);
  sink = GC_MALLOC (16);
  mp_memprof_stop ();
}

int
main (void)
{
  GC_INIT ();
  mp_minor ();
  mp_minor ();
  long a = mpt_collections ();
  /* Each collection's end writes the buffer out, but for the events
     that came after: the second mp_minor's end.  */
  CHECK_EQ (in_file (MINOR_BEGIN), a);
  CHECK_EQ (in_file (FORCED_END), 1);
  mp_eventlog_pause ();
  CHECK_EQ (in_file (FORCED_END), 2);	/* written out */
  mp_eventlog_pause ();			/* a paused log: nothing */
  mp_minor ();
  mp_major ();
  mp_minor ();
  CHECK_EQ (in_file (MINOR_BEGIN), a);	/* nothing recorded */
  CHECK_EQ (in_file (FORCED_END), 2);
  long b = mpt_collections ();
  mp_eventlog_resume ();
  mp_eventlog_resume ();		/* a running log: nothing */
  mp_minor ();
  long c = mpt_collections ();

  callback_that (0);	/* begins running, ends paused: kept whole */
  callback_that (1);	/* begins paused, ends running: dropped whole */
  mp_eventlog_pause ();

  FILE *f = fopen ("expect.txt", "w");
  fprintf (f, "span minor %ld\nforced mp_minor 3\nspan forced 3\n"
           "span alloc_minor 1\n", a + (c - b));
  fclose (f);
  return mpt_done ();
}

/* { dg-final { scan-eventlog log.json "^balanced$" } } */
/* { dg-final { scan-eventlog log.json "^expected: ok$" expect.txt } } */
