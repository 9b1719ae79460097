/* mptest.h -- helpers shared by the memprof run tests:
   #include "../lib/mptest.h" from a test of testsuite/memprof.<area>/.

   CHECK (cond) and CHECK_EQ (actual, expected) print a precise diagnostic
   on stderr and count the failure; mpt_done () prints "ok" and returns 0,
   or prints the number of failures and returns 1 (use it as main's
   result).  SITE (line) sums the per-site counters of every site of this
   file at LINE (GCC may duplicate a call when it optimises, so one source
   call may give several sites); SITE_CALLED (line, call_line) those of
   the sites at LINE in a function that was inlined at CALL_LINE.
   mpt_file_has (path, needle) reads a file (a report, /proc/self/maps)
   for a line that holds NEEDLE.  */

#ifndef MPTEST_H
#define MPTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <memprof.h>

static int mpt_failures;

#define CHECK(c)							\
  do {									\
    if (!(c))								\
      {									\
	fprintf (stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);	\
	mpt_failures++;							\
      }									\
  } while (0)

#define CHECK_EQ(a, b)							\
  do {									\
    long long mpt_a_ = (long long) (a), mpt_b_ = (long long) (b);	\
    if (mpt_a_ != mpt_b_)						\
      {									\
	fprintf (stderr, "FAIL %s:%d: %s is %lld, expected %s = %lld\n",\
		 __FILE__, __LINE__, #a, mpt_a_, #b, mpt_b_);		\
	mpt_failures++;							\
      }									\
  } while (0)

/* Set one field of the control record, checking that mp_set takes it.  */
#define MPT_SET(field, value)						\
  do {									\
    struct mp_control mpt_c_;						\
    mp_get (&mpt_c_);							\
    mpt_c_.field = (value);						\
    CHECK_EQ (mp_set (&mpt_c_), 0);					\
  } while (0)

struct mpt_site
{
  unsigned n;			/* how many sites matched */
  const char *callee;		/* of the last match (static strings) */
  struct mp_alloc_stats s;
  double minor_words, major_words;
};

struct mpt_query
{
  const char *file;
  unsigned line;
  unsigned call_line;		/* of inlined[0]; 0 for any site */
  struct mpt_site r;
};

static void
mpt_add_stats (struct mp_alloc_stats *a, const struct mp_alloc_stats *b)
{
  a->numAllocate += b->numAllocate;
  a->numAllocateOK += b->numAllocateOK;
  a->numExpand += b->numExpand;
  a->numExpandOK += b->numExpandOK;
  a->numReallocate += b->numReallocate;
  a->numReallocateOK += b->numReallocateOK;
  a->numReallocateInPlace += b->numReallocateInPlace;
  a->numDeallocate += b->numDeallocate;
  a->numForeignDeallocate += b->numForeignDeallocate;
  a->bytesAllocated += b->bytesAllocated;
  a->bytesExpanded += b->bytesExpanded;
  a->bytesContracted += b->bytesContracted;
  a->bytesMoved += b->bytesMoved;
  a->bytesNotMoved += b->bytesNotMoved;
  a->bytesUsed += b->bytesUsed;
  a->bytesSlack += b->bytesSlack;
  a->bytesHighTide += b->bytesHighTide;
}

static int
mpt_site_cb (const struct mp_site_info *i, void *data)
{
  struct mpt_query *q = (struct mpt_query *) data;
  if (q->call_line
      && (i->n_inlined == 0 || i->inlined[0].line != q->call_line
	  || strcmp (i->inlined[0].file, q->file) != 0))
    return 0;
  if (i->line == q->line && strcmp (i->file, q->file) == 0)
    {
      q->r.n++;
      q->r.callee = i->callee;
      mpt_add_stats (&q->r.s, &i->stats);
      q->r.minor_words += i->minor_words;
      q->r.major_words += i->major_words;
    }
  return 0;
}

static struct mpt_site
mpt_site_at (const char *file, unsigned line, unsigned call_line)
{
  struct mpt_query q;
  memset (&q, 0, sizeof q);
  q.file = file;
  q.line = line;
  q.call_line = call_line;
  mp_site_foreach (mpt_site_cb, &q);
  return q.r;
}

#define SITE(line) mpt_site_at (__FILE__, (line), 0)
#define SITE_CALLED(line, call_line) \
  mpt_site_at (__FILE__, (line), (call_line))

/* A size in words: bytes rounded up to whole words.  */
#define W(n) (((n) + sizeof (void *) - 1) / sizeof (void *))

/* The allocation counts of the sites at LINE: COUNT calls of CALLEE (any
   callee if NULL), all successful, BYTES asked, MINOR_W and MAJOR_W
   words.  CHECK_SITE_CALLED: of the sites at LINE inlined at CALL_LINE.  */
#define CHECK_SITE(line, callee, count, bytes, minor_w, major_w) \
  mpt_check_site (__FILE__, (line), 0, (callee), (count), (bytes), \
                  (minor_w), (major_w))
#define CHECK_SITE_CALLED(line, call_line, callee, count, bytes, minor_w, \
                          major_w) \
  mpt_check_site (__FILE__, (line), (call_line), (callee), (count), \
                  (bytes), (minor_w), (major_w))

static __attribute__ ((unused)) void
mpt_check_site (const char *file, unsigned line, unsigned call_line,
                const char *callee, unsigned long count, unsigned long bytes,
                double minor_w, double major_w)
{
  struct mpt_site s = mpt_site_at (file, line, call_line);
  int before = mpt_failures;
  if (s.n == 0 || (callee && strcmp (s.callee, callee) != 0))
    {
      fprintf (stderr, "FAIL line %u: %u sites, callee %s, expected %s\n",
               line, s.n, s.n ? s.callee : "-", callee ? callee : "any");
      mpt_failures++;
      if (s.n == 0)
        return;
    }
  CHECK_EQ (s.s.numAllocate, count);
  CHECK_EQ (s.s.numAllocateOK, count);
  CHECK_EQ (s.s.bytesAllocated, bytes);
  CHECK_EQ (s.minor_words, minor_w);
  CHECK_EQ (s.major_words, major_w);
  if (mpt_failures != before)
    fprintf (stderr, "  (after the checks of line %u)\n", line);
}

/* The sites at LINE made COUNT allocations, all successful, of BYTES in
   all (CHECK_ALLOCS), or freed COUNT blocks of BYTES (CHECK_FREES); the
   words are not checked, for blocks off the GC heap have none.  */
#define CHECK_ALLOCS(line, count, bytes) \
  mpt_check_counts (__FILE__, (line), 0, (count), (bytes))
#define CHECK_FREES(line, count, bytes) \
  mpt_check_counts (__FILE__, (line), 1, (count), (bytes))

static __attribute__ ((unused)) void
mpt_check_counts (const char *file, unsigned line, int frees,
                  unsigned long count, unsigned long bytes)
{
  struct mpt_site s = mpt_site_at (file, line, 0);
  int before = mpt_failures;
  if (frees)
    {
      CHECK_EQ (s.s.numDeallocate, count);
      CHECK_EQ (s.s.bytesContracted, bytes);
    }
  else
    {
      CHECK_EQ (s.s.numAllocate, count);
      CHECK_EQ (s.s.numAllocateOK, count);
      CHECK_EQ (s.s.bytesAllocated, bytes);
    }
  if (mpt_failures != before)
    fprintf (stderr, "  (after the checks of line %u)\n", line);
}

/* Define mpt_on_minor and mpt_on_major, allocation callbacks that call
   FN (allocation, young), for trackers that tell the heaps apart by a
   flag.  */
#define MPT_ALLOC_CALLBACKS(fn)                                         \
  static void *                                                         \
  mpt_on_minor (const struct mp_allocation *a, void *data)              \
  {                                                                     \
    (void) data;                                                        \
    return fn (a, 1);                                                   \
  }                                                                     \
  static void *                                                         \
  mpt_on_major (const struct mp_allocation *a, void *data)              \
  {                                                                     \
    (void) data;                                                        \
    return fn (a, 0);                                                   \
  }

/* promoted_words now.  */
static __attribute__ ((unused)) double
mpt_promoted_words (void)
{
  double p;
  mp_counters (NULL, &p, NULL);
  return p;
}

/* Start sampling at RATE with tracker TR; CHECK that it started.  */
static __attribute__ ((unused)) void
mpt_start (double rate, struct mp_tracker tr)
{
  CHECK_EQ (mp_memprof_start (rate, 0, &tr), 0);
}

#ifdef GC_H
/* Overwrite the stack below us (and most registers), so that no stale
   copy of a pointer to a dropped block keeps it alive: the collector is
   conservative.  Not instrumented: ASan would frame JUNK in redzones that
   the memset does not reach.  */
static __attribute__ ((noinline, unused, no_sanitize_address)) void
clear_stack (void)
{
  volatile char junk[64 * 1024];
  memset ((char *) junk, 0, sizeof junk);
  __asm__ volatile ("" : : "r" (junk) : "memory");
}

/* A collection with nothing stale on the stack.  */
static __attribute__ ((noinline, unused)) void
collect (void)
{
  clear_stack ();
  GC_gcollect ();
}

/* TIMES such collections, each with the finalisers it found, and an
   allocation that delivers what fell due (memprof's finalisers held
   back, finalise_last calls, alarms).  */
static __attribute__ ((noinline, unused)) void
mpt_collect_deliver (int times)
{
  for (int i = 0; i < times; i++)
    {
      collect ();
      GC_invoke_finalizers ();
      void *volatile p = malloc (8);
      free (p);
    }
}
#endif

/* The collections so far: the stat record's minor_collections.  */
static __attribute__ ((unused)) long
mpt_collections (void)
{
  struct mp_stat st;
  mp_quick_stat (&st);
  return st.minor_collections;
}

/* What FN writes to a stream, as a string that mpt_check_text frees:
   open_memstream's buffer is libc's, and our free would count it as a
   foreign deallocation.  */
static void (*volatile mpt_libc_free) (void *) = free;

static __attribute__ ((unused)) char *
mpt_capture_text (void (*fn) (FILE *))
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  fn (f);
  fclose (f);
  return text;
}

/* CHECK that FN writes exactly EXPECT.  */
#define CHECK_TEXT(fn, expect) \
  mpt_check_text (#fn, mpt_capture_text (fn), (expect))

static __attribute__ ((unused)) void
mpt_check_text (const char *what, char *got, const char *expect)
{
  if (strcmp (got, expect) != 0)
    {
      fprintf (stderr, "FAIL %s wrote:\n%s--- expected:\n%s", what, got,
               expect);
      mpt_failures++;
    }
  mpt_libc_free (got);
}

/* Whether a line of the file at PATH contains NEEDLE (0 if the file
   cannot be read).  */
static inline int
mpt_file_has (const char *path, const char *needle)
{
  FILE *f = fopen (path, "r");
  char line[4096];
  int found = 0;
  while (f && fgets (line, sizeof line, f))
    found |= strstr (line, needle) != NULL;
  if (f)
    fclose (f);
  return found;
}

static int
mpt_done (void)
{
  if (mpt_failures)
    {
      printf ("FAILED: %d checks\n", mpt_failures);
      return 1;
    }
  printf ("ok\n");
  return 0;
}

#endif
