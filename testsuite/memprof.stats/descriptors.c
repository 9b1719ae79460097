/* Descriptors of other ABIs (runtime/site.h).  One of ABI 1, from an
   older plugin, stays valid: counted at its own site, keeping every
   statistic.  One of ABI 2 that leaves a statistic out takes it out of
   the global report, whose figures are exact only if every site kept
   it.  One of an ABI the runtime does not know is counted as
   <unknown>.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include "../lib/mptest.h"
#include "entry.h"

/* ABI 1's layout: struct mp_site before the masks.  */
struct site_abi1
{
  unsigned abi, id;
  const char *file, *function, *callee;
  unsigned line, column, kind, n_inlined;
  const struct mp_inline_frame *inlined;
};

static struct site_abi1 old = {
  1, 0, "old.c", "f", "malloc", 11, 1, MP_KIND_MALLOC, 0, NULL
};
static struct mp_site lean = {
  MP_SITE_ABI, 0, "lean.c", "g", "malloc", 22, 1, MP_KIND_MALLOC, 0, NULL,
  MP_STATS_bytesSlack, MP_STATS_all
};
static struct mp_site future = {
  99, 0, "future.c", "h", "malloc", 33, 1, MP_KIND_MALLOC, 0, NULL, 0, 0
};

void *volatile sink[3];

int
main (void)
{
  sink[0] = __mp_malloc (5, (const struct mp_site *) &old);
  CHECK_EQ (mp_alloc_stats_collected (), MP_STATS_all);
  struct mpt_site s = mpt_site_at ("old.c", 11, 0);
  CHECK_EQ (s.n, 1);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.bytesAllocated, 5);

  sink[1] = __mp_malloc (6, &lean);
  CHECK_EQ (mp_alloc_stats_collected (), MP_STATS_all & ~MP_STATS_bytesSlack);
  CHECK_EQ (mpt_site_at ("lean.c", 22, 0).n, 0 + 1);
  CHECK_EQ (mpt_site_at ("lean.c", 22, 0).s.numAllocate, 0);	/* none per call */

  sink[2] = __mp_malloc (7, &future);
  CHECK_EQ (future.id, 0);		/* never written */
  CHECK_EQ (mpt_site_at ("<unknown>", 0, 0).s.numAllocate, 1);
  struct mp_alloc_stats a;
  mp_alloc_stats (&a);
  CHECK_EQ (a.numAllocate, 3);
  CHECK_EQ (a.bytesAllocated, 18);
  CHECK_EQ (a.bytesSlack, 0);		/* not kept by every site */
  return mpt_done ();
}

/* { dg-output "== allocator statistics ==\nnumAllocate:3\n.*bytesNotMoved:0\nbytesHighTide:18\nnot rewritten: not counted \\(.*\\)\n== memprof's own memory ==\n" } */
