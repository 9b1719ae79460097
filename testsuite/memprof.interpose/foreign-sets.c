/* The calls no rewritten site made are counted at the site of their
   return address, which each thread's cache finds (foreign.h): in sets
   of two entries, by bits 4 to 12 of the address.  Three calls 8 KiB
   apart share one set and take turns in it; forty calls close together
   have sets of their own, but for neighbours.  Every call is counted at
   its own site, exactly.  The calls are indirect: the plugin rewrites
   none of them.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1" } */

#include <stdint.h>
#include "../lib/mptest.h"

#define ROUNDS 100
#define CLOSE 40

void *(*volatile indirect_malloc) (size_t) = malloc;
void (*volatile indirect_free) (void *) = free;
void *volatile kept[CLOSE];

/* One malloc and one free, at the same offsets in each of the three
   functions, 8 KiB apart: the same code but for the size.  noipa: not
   merged into one.  The store after the free keeps it from being a
   tail call, which returns to the caller's caller.  */
#define SHARING(name, size)                                               \
  static __attribute__ ((aligned (8192), noinline, noipa)) void          \
  name (void)                                                            \
  {                                                                      \
    kept[0] = indirect_malloc (size);                                    \
    indirect_free (kept[0]);                                             \
    kept[0] = NULL;                                                      \
  }
SHARING (share_a, 101)
SHARING (share_b, 102)
SHARING (share_c, 103)

/* CLOSE mallocs in a row, then CLOSE frees.  */
static __attribute__ ((noinline)) void
close_together (void)
{
#define M(i) kept[i] = indirect_malloc (10 + i);
#define M10(i) M (i) M (i + 1) M (i + 2) M (i + 3) M (i + 4) M (i + 5)    \
  M (i + 6) M (i + 7) M (i + 8) M (i + 9)
  M10 (0) M10 (10) M10 (20) M10 (30)
#define F(i) indirect_free (kept[i]);
#define F10(i) F (i) F (i + 1) F (i + 2) F (i + 3) F (i + 4) F (i + 5)    \
  F (i + 6) F (i + 7) F (i + 8) F (i + 9)
  F10 (0) F10 (10) F10 (20) F10 (30)
  kept[0] = NULL;
}

struct query
{
  const char *function;
  unsigned mallocs, frees;      /* sites */
  struct mp_alloc_stats s;
  int uneven;                   /* a site with other than ROUNDS calls */
};

static int
foreign_site (const struct mp_site_info *i, void *data)
{
  struct query *q = data;
  if (!i->not_rewritten || i->function == NULL
      || strcmp (i->function, q->function) != 0)
    return 0;
  int malloc_site = strcmp (i->callee, "malloc") == 0;
  q->mallocs += malloc_site;
  q->frees += !malloc_site;
  q->uneven |= (malloc_site ? i->stats.numAllocate : i->stats.numDeallocate)
               != ROUNDS;
  mpt_add_stats (&q->s, &i->stats);
  return 0;
}

static struct query
sites_in (const char *function)
{
  struct query q;
  memset (&q, 0, sizeof q);
  q.function = function;
  mp_site_foreach (foreign_site, &q);
  return q;
}

int
main (void)
{
  /* the case under test: 8 KiB apart */
  CHECK_EQ ((uintptr_t) share_a % 8192, 0);
  CHECK_EQ ((uintptr_t) share_b % 8192, 0);
  CHECK_EQ ((uintptr_t) share_c % 8192, 0);
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  for (int r = 0; r < ROUNDS; r++)
    {
      share_a ();
      share_b ();
      share_c ();
      close_together ();
    }
  const char *names[] = { "share_a", "share_b", "share_c" };
  for (int k = 0; k < 3; k++)
    {
      struct query q = sites_in (names[k]);
      CHECK_EQ (q.mallocs, 1);
      CHECK_EQ (q.frees, 1);
      CHECK_EQ (q.uneven, 0);
      CHECK_EQ (q.s.numAllocate, ROUNDS);
      CHECK_EQ (q.s.bytesAllocated, ROUNDS * (101 + k));
      CHECK_EQ (q.s.numDeallocate, ROUNDS);
      CHECK_EQ (q.s.bytesContracted, ROUNDS * (101 + k));
      CHECK_EQ (q.s.numForeignDeallocate, 0);
    }
  struct query q = sites_in ("close_together");
  CHECK_EQ (q.mallocs, CLOSE);
  CHECK_EQ (q.frees, CLOSE);
  CHECK_EQ (q.uneven, 0);
  CHECK_EQ (q.s.numAllocate, ROUNDS * CLOSE);
  CHECK_EQ (q.s.bytesAllocated, ROUNDS * (10 * CLOSE + CLOSE * (CLOSE - 1) / 2));
  CHECK_EQ (q.s.numDeallocate, ROUNDS * CLOSE);
  CHECK_EQ (q.s.bytesContracted, q.s.bytesAllocated);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  CHECK_EQ (g.numAllocate - g0.numAllocate, ROUNDS * (3 + CLOSE));
  CHECK_EQ (g.numDeallocate - g0.numDeallocate, ROUNDS * (3 + CLOSE));
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
