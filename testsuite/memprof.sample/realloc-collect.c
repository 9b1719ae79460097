/* A young tracked GC block that a GC_realloc moves, when Boehm collects
   inside that GC_realloc: the block lived through the collection (the
   program held it), so the counters promote it, and the tracker must
   too: promote, then dealloc_major, not dealloc_minor.  The tracked
   entry is off the table while Boehm runs (another block may take the
   address as soon as Boehm frees it), where the collection's reclaim
   does not see it.  The realloc to a large size needs a heap block
   each time, so that Boehm collects there when one is due.  The same
   for a GC_realloc that fails after collecting, the block left as it
   was: its promotion is due at once, not at the next collection.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-timeout 120 } */

#include <gc.h>
#include "../lib/mptest.h"

#define N 20000                 /* GC_reallocs that move */
#define FAILS 2000              /* and that fail */
#define YOUNG 800               /* 100 words, young */
#define LARGE 4000              /* major */
#define TOO_LARGE (64 << 20)    /* past the heap's limit */

enum { PROMOTED = 1, DEAD_MINOR = 2, DEAD_MAJOR = 4 };
static unsigned char state[N + 2 * FAILS + 1];  /* by id */
static long ids;

static void *
alloc_minor (const struct mp_allocation *a, void *data)
{
  (void) a, (void) data;
  return (void *) ++ids;
}

static void *
promote (void *meta, void *data)
{
  (void) data;
  state[(long) meta] |= PROMOTED;
  return meta;
}

static void
dealloc_minor (void *meta, void *data)
{
  (void) data;
  state[(long) meta] |= DEAD_MINOR;
}

static void
dealloc_major (void *meta, void *data)
{
  (void) data;
  state[(long) meta] |= DEAD_MAJOR;
}

void *volatile sink;

/* GC_reallocs that move young blocks, ids 1 to N: each block is
   promoted and dead major, or dead minor; promoted if Boehm collected
   inside its GC_realloc.  Return how many did.  */
static long
moving_reallocs (void)
{
  static unsigned char collected[N + 1];
  for (long i = 1; i <= N; i++)
    {
      void *p = GC_MALLOC (YOUNG);
      GC_word gc_no = GC_get_gc_no ();
      sink = GC_REALLOC (p, LARGE);
      collected[i] = GC_get_gc_no () != gc_no;
    }
  mp_full_major ();
  CHECK_EQ (ids, N);
  long hits = 0, bad = 0;
  for (long i = 1; i <= N; i++)
    {
      hits += collected[i];
      bad += state[i] != (collected[i] || (state[i] & PROMOTED)
                          ? PROMOTED | DEAD_MAJOR : DEAD_MINOR);
    }
  CHECK_EQ (bad, 0);
  return hits;
}

static void
quiet (char *msg, GC_word arg)
{
  (void) msg, (void) arg;
}

/* GC_reallocs that fail after a collection, which Boehm runs before it
   tries to grow the heap past its limit while it may not grow it
   without one: the block is promoted by the next delivery (the small
   allocation's, at rate 1), not at the next collection.  Return how
   many collected.  */
static long
failing_reallocs (void)
{
  GC_set_max_heap_size (16 << 20);
  GC_set_dont_expand (1);
  GC_set_warn_proc (quiet);     /* Boehm's "Out of Memory!" */
  long hits = 0;
  for (int i = 0; i < FAILS; i++)
    {
      long id = ids + 1;
      void *p = GC_MALLOC (YOUNG);
      GC_word gc_no = GC_get_gc_no ();
      CHECK (GC_REALLOC (p, TOO_LARGE) == NULL);
      int collected = GC_get_gc_no () != gc_no;
      sink = GC_MALLOC (8);
      if (collected && GC_get_gc_no () == gc_no + 1)
        {
          hits++;
          CHECK_EQ (state[id], PROMOTED);
        }
      sink = p;
    }
  return hits;
}

int
main (void)
{
  GC_INIT ();
  /* The large blocks are not followed.  */
  struct mp_tracker tr = { alloc_minor, NULL, promote, dealloc_minor,
                           dealloc_major, NULL };
  double before, after;
  mp_counters (NULL, &before, NULL);
  CHECK_EQ (mp_memprof_start (1, 0, &tr), 0);
  CHECK (moving_reallocs () > 0);
  long promotions = 0;
  for (long i = 1; i <= N; i++)
    promotions += state[i] & PROMOTED;
  mp_counters (NULL, &after, NULL);
  CHECK_EQ (after - before, promotions * (YOUNG / sizeof (void *)));
  CHECK (failing_reallocs () > 0);
  mp_memprof_stop ();
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
