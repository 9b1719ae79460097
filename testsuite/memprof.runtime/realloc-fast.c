/* realloc's fast path (libc.c's realloc_as) counts exactly what its
   general path does.  A site takes the general path on its first call
   (it is numbered then), so each case runs in rounds at the same sites:
   growing, moving and shrinking; a failure, which leaves the block
   intact and ours; a size of 0, a free; a block that the allocator returns mmapped; growth
   that makes a new peak of bytesUsed; and growth with a sample due, the
   block then tracked until its free.  A realloc that glibc's would do
   in place, the chunk untouched (no call is made then), too: growth
   into the slack and a small shrink, with a sample due or not; a
   larger shrink, which glibc's splits, still calls it.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var ASAN_OPTIONS "allocator_may_return_null=1" } */

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include "../lib/mptest.h"

#define ROUNDS 50

void *volatile sink;
static volatile size_t too_big = SIZE_MAX / 2;	/* glibc's realloc fails */
static volatile size_t overflows = SIZE_MAX - 7;	/* and the trailer wraps */
/* Indirect calls are not rewritten: libc's own malloc.  */
void *(*volatile libc_malloc) (size_t) = malloc;

static struct mp_alloc_stats
stats (void)
{
  struct mp_alloc_stats g;
  mp_alloc_stats (&g);
  return g;
}

/* What the realloc sites count: CALLS calls, OK of them that worked,
   IN_PLACE of those in place; EXPAND that grow, EXPAND_OK of those in
   place, by EXPANDED bytes; CONTRACTED bytes shrunk; MOVED and NOT_MOVED
   bytes kept.  */
struct reallocs
{
  long calls, ok, in_place, expand, expand_ok, expanded, contracted, moved,
    not_moved;
};

static void
check_reallocs (unsigned line, struct reallocs want)
{
  int before = mpt_failures;
  struct mpt_site s = SITE (line);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.s.numDeallocate, 0);
  CHECK_EQ (s.s.numReallocate, want.calls);
  CHECK_EQ (s.s.numReallocateOK, want.ok);
  CHECK_EQ (s.s.numReallocateInPlace, want.in_place);
  CHECK_EQ (s.s.numExpand, want.expand);
  CHECK_EQ (s.s.numExpandOK, want.expand_ok);
  CHECK_EQ (s.s.bytesExpanded, want.expanded);
  CHECK_EQ (s.s.bytesAllocated, want.expanded);
  CHECK_EQ (s.s.bytesContracted, want.contracted);
  CHECK_EQ (s.s.bytesMoved, want.moved);
  CHECK_EQ (s.s.bytesNotMoved, want.not_moved);
  if (mpt_failures != before)
    fprintf (stderr, "  (the realloc at line %u)\n", line);
}

/* What the realloc site at LINE counts when each of its ROUNDS calls
   grew a block from OLD to N bytes, IN_PLACE of them in place.  */
static void
check_grown (unsigned line, int in_place, long old, long n)
{
  check_reallocs (line, (struct reallocs) {
      .calls = ROUNDS, .ok = ROUNDS, .in_place = in_place, .expand = ROUNDS,
      .expand_ok = in_place, .expanded = ROUNDS * (n - old),
      .not_moved = in_place * old, .moved = (ROUNDS - in_place) * old });
}

/* The same for blocks shrunk from OLD to N bytes.  */
static void
check_shrunk (unsigned line, int in_place, long old, long n)
{
  check_reallocs (line, (struct reallocs) {
      .calls = ROUNDS, .ok = ROUNDS, .in_place = in_place,
      .contracted = ROUNDS * (old - n), .not_moved = in_place * n,
      .moved = (ROUNDS - in_place) * n });
}

/* What the site at LINE counts: CALLS frees of our blocks, of BYTES.  */
static void
check_frees (unsigned line, long calls, long bytes)
{
  struct mpt_site s = SITE (line);
  CHECK_EQ (s.s.numDeallocate, calls);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  CHECK_EQ (s.s.bytesContracted, bytes);
  CHECK_EQ (s.s.numReallocate, 0);
  CHECK_EQ (s.s.numAllocate, 0);
}

/* Grow 24 -> 100 -> 3000 (mostly moving: a block is in the way),
   shrink 3000 -> 40 (in place, in glibc's).  A foreign block where a moved one
   was is not taken for ours: the realloc cleared the tag.  */
static void
grow_and_shrink (void)
{
  unsigned l_grow = 0, l_move = 0, l_shrink = 0, l_theirs = 0;
  int grow_in_place = 0, move_in_place = 0, shrink_in_place = 0;
  struct mp_alloc_stats g0 = stats (), g;
  for (int i = 0; i < ROUNDS; i++)
    {
      char *p = malloc (24);
      memset (p, 'a' + i % 26, 24);
      char *q = realloc (p, 100); l_grow = __LINE__;
      grow_in_place += q == p;
      for (int k = 0; k < 24; k++)
	CHECK_EQ (q[k], 'a' + i % 26);
      memset (q, 'b', 100);
      g = stats ();
      CHECK_EQ (g.bytesUsed - g0.bytesUsed, 100);
      char *wall = malloc (16);	/* so that q cannot grow in place */
      sink = wall;
      char *r = realloc (q, 3000); l_move = __LINE__;
      move_in_place += r == q;
      /* usually where q was, from the allocator's cache */
      void *theirs = libc_malloc (100 + sizeof (uint64_t));
      free (theirs); l_theirs = __LINE__;
      for (int k = 0; k < 100; k++)
	CHECK_EQ (r[k], 'b');
      CHECK (malloc_usable_size (r) >= 3000);
      g = stats ();
      CHECK_EQ (g.bytesUsed - g0.bytesUsed, 3016);
      char *s = realloc (r, 40); l_shrink = __LINE__;
      shrink_in_place += s == r;
      for (int k = 0; k < 40; k++)
	CHECK_EQ (s[k], 'b');
      g = stats ();
      CHECK_EQ (g.bytesUsed - g0.bytesUsed, 56);
      free (s);
      free (wall);
      g = stats ();
      CHECK_EQ (g.bytesUsed, g0.bytesUsed);
      CHECK_EQ (g.bytesSlack, g0.bytesSlack);
    }
  CHECK (move_in_place < ROUNDS);
#ifndef __SANITIZE_ADDRESS__
  /* glibc's grows in place too, and shrinks in place (ASan's moves) */
  CHECK (grow_in_place + move_in_place > 0);
  CHECK_EQ (shrink_in_place, ROUNDS);
#endif

  check_grown (l_grow, grow_in_place, 24, 100);
  check_grown (l_move, move_in_place, 100, 3000);
  check_shrunk (l_shrink, shrink_in_place, 3000, 40);

  struct mpt_site s = SITE (l_theirs);
  CHECK_EQ (s.s.numForeignDeallocate, ROUNDS);
  CHECK_EQ (s.s.numDeallocate, 0);

  g = stats ();
  CHECK_EQ (g.numReallocate - g0.numReallocate, 3 * ROUNDS);
  CHECK_EQ (g.numDeallocate - g0.numDeallocate, 2 * ROUNDS);
  CHECK_EQ (g.numForeignDeallocate - g0.numForeignDeallocate, ROUNDS);
}

/* A realloc that fails leaves the block as it was: its contents, and
   ours, freed as ours.  So does one whose size, with the tag's, does
   not fit in a size_t, which the fast path must not take: wrapped, it
   would reach the allocator as 0, a free.  (The block is of 30 bytes:
   in the chunk of one of 10, that size would look like one that fits,
   for which the fast path calls no allocator.)  */
static void
failing (void)
{
  unsigned l_fail = 0, l_overflow = 0, l_free = 0;
  struct mp_alloc_stats g0 = stats (), g;
  for (int i = 0; i < ROUNDS; i++)
    {
      char *p = malloc (30);
      memcpy (p, "012345678", 10);
      errno = 0;
      CHECK (realloc (p, too_big) == NULL); l_fail = __LINE__;
      CHECK_EQ (errno, ENOMEM);
      errno = 0;
      CHECK (realloc (p, overflows) == NULL); l_overflow = __LINE__;
      CHECK_EQ (errno, ENOMEM);
      CHECK (strcmp (p, "012345678") == 0);
      CHECK_EQ (malloc_usable_size (p) >= 10, 1);
      g = stats ();
      CHECK_EQ (g.bytesUsed - g0.bytesUsed, 30);
      free (p); l_free = __LINE__;
    }
  struct reallocs failed = { .calls = ROUNDS, .expand = ROUNDS };
  check_reallocs (l_fail, failed);
  check_reallocs (l_overflow, failed);
  check_frees (l_free, ROUNDS, ROUNDS * 30);
  g = stats ();
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  CHECK_EQ (g.bytesSlack, g0.bytesSlack);
}

/* realloc (p, 0) frees P (glibc): a deallocation.  */
static void
to_zero (void)
{
  unsigned l_zero = 0;
  struct mp_alloc_stats g0 = stats (), g;
  for (int i = 0; i < ROUNDS; i++)
    {
      char *p = malloc (30);
      CHECK (realloc (p, 0) == NULL); l_zero = __LINE__;
    }
  check_frees (l_zero, ROUNDS, ROUNDS * 30);
  g = stats ();
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  CHECK_EQ (g.numForeignDeallocate, g0.numForeignDeallocate);
}

/* A small block grown past the mmap threshold: the allocator returns an
   mmapped block, whose tag sits elsewhere.  */
static void
into_mmap (void)
{
  mallopt (M_MMAP_THRESHOLD, 64 * 1024);
  unsigned l_big = 0, l_free = 0;
  struct mp_alloc_stats g0 = stats (), g;
  for (int i = 0; i < ROUNDS; i++)
    {
      char *p = malloc (100);
      memset (p, 'm', 100);
      char *q = realloc (p, 1 << 20); l_big = __LINE__;
      CHECK (q != NULL && q != p);
      for (int k = 0; k < 100; k++)
	CHECK_EQ (q[k], 'm');
      CHECK (malloc_usable_size (q) >= 1 << 20);
      g = stats ();
      CHECK_EQ (g.bytesUsed - g0.bytesUsed, 1 << 20);
      free (q); l_free = __LINE__;
    }
  check_reallocs (l_big, (struct reallocs) {
      .calls = ROUNDS, .ok = ROUNDS, .expand = ROUNDS,
      .expanded = ROUNDS * ((1 << 20) - 100), .moved = ROUNDS * 100 });
  check_frees (l_free, ROUNDS, ROUNDS * (1 << 20));
  g = stats ();
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  CHECK_EQ (g.bytesSlack, g0.bytesSlack);
}

/* Growth into the slack of the chunk, then a shrink too small for
   glibc's realloc to split the chunk: both in place, made without a
   call, the tag moved.  A shrink by more than 4 words is glibc's to
   make: the chunk is split, its usable size falls.  */
static void
untouched (void)
{
  unsigned l_grow = 0, l_shrink = 0, l_split = 0, l_free = 0;
  int grow_in_place = 0, shrink_in_place = 0;
  struct mp_alloc_stats g0 = stats (), g;
  for (int i = 0; i < ROUNDS; i++)
    {
      char *p = malloc (8);
      memcpy (p, "0123456", 8);
      char *q = realloc (p, 16); l_grow = __LINE__;
      grow_in_place += q == p;
      CHECK (strcmp (q, "0123456") == 0);
      size_t usable = malloc_usable_size (q);
      CHECK (usable >= 16);
      g = stats ();
      CHECK_EQ (g.bytesUsed - g0.bytesUsed, 16);
      CHECK_EQ (g.bytesSlack - g0.bytesSlack, usable - 16);
      char *r = realloc (q, 12); l_shrink = __LINE__;
      shrink_in_place += r == q;
      g = stats ();
      CHECK_EQ (g.bytesUsed - g0.bytesUsed, 12);
      CHECK_EQ (g.bytesSlack - g0.bytesSlack, malloc_usable_size (r) - 12);
#ifndef __SANITIZE_ADDRESS__
      CHECK_EQ (malloc_usable_size (r), usable);
#endif
      char *big = malloc (200);
      char *s = realloc (big, 100); l_split = __LINE__;
      CHECK (malloc_usable_size (s) < 100 + 4 * sizeof (size_t));
      free (s);
      free (r); l_free = __LINE__;
      g = stats ();
      CHECK_EQ (g.bytesUsed, g0.bytesUsed);
      CHECK_EQ (g.bytesSlack, g0.bytesSlack);
    }
#ifndef __SANITIZE_ADDRESS__
  CHECK_EQ (grow_in_place, ROUNDS);
  CHECK_EQ (shrink_in_place, ROUNDS);
#endif
  check_grown (l_grow, grow_in_place, 8, 16);
  check_shrunk (l_shrink, shrink_in_place, 16, 12);
  struct mpt_site s = SITE (l_split);
  CHECK_EQ (s.s.numReallocateOK, ROUNDS);
  CHECK_EQ (s.s.bytesContracted, ROUNDS * 100);
  check_frees (l_free, ROUNDS, ROUNDS * 12);
}

/* Growth to a new high tide, round after round, on the heap.  */
static void
new_peaks (void)
{
  mallopt (M_MMAP_THRESHOLD, 16 << 20);
  struct mp_alloc_stats g0 = stats (), g;
  for (int i = 1; i <= 5; i++)
    {
      char *p = malloc (8);
      char *q = realloc (p, (size_t) i << 21);
      g = stats ();
      CHECK (g.bytesHighTide >= g0.bytesUsed + ((uint64_t) i << 21));
      CHECK_EQ (g.bytesUsed - g0.bytesUsed, (uint64_t) i << 21);
      free (realloc (q, 8));
    }
  g = stats ();
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
}

static volatile int allocs, deallocs, bad;
static volatile size_t grown;	/* the words the realloc adds */
static char meta;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  allocs++;
  bad += a->n_samples != grown;
  return &meta;
}

static void
on_dealloc (void *m, void *data)
{
  (void) data;
  bad += m != &meta;
  deallocs++;
}

/* An untracked block grown while every word is sampled, to N bytes:
   the words added are a sample, and the block is tracked from then on.
   Into the slack of its chunk too (N 16), where no call is made.  */
static void
sampled (size_t n)
{
  allocs = deallocs = 0;
  grown = n / 8 - 1;
  for (int i = 0; i < ROUNDS; i++)
    {
      char *p = malloc (8);	/* sampling is off */
      mpt_start (1, (struct mp_tracker) { .alloc_major = on_alloc,
					  .dealloc_major = on_dealloc });
      char *q = realloc (p, n);
      CHECK_EQ (allocs, i + 1);
      CHECK_EQ (deallocs, i);
      free (q);
      CHECK_EQ (deallocs, i + 1);
      CHECK_EQ (mp_memprof_stop (), 0);
    }
  CHECK_EQ (bad, 0);
}

int
main (void)
{
  grow_and_shrink ();
  failing ();
  to_zero ();
  into_mmap ();
  untouched ();
  new_peaks ();
  sampled (800);
  sampled (16);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
