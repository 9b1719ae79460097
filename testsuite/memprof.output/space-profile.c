/* mp_space_profile_foreach: MLWorks' space profiles per function.  At
   sampling rate 1 every figure is exact: per kind, blocks, data and
   overhead (GC_size, or malloc's slack, beyond the size in words);
   copies at each age for GC blocks kept through five collections (ages
   0, 1 and 2 once each, 3+ twice); nothing copied of malloc and custom
   blocks; inclusive figures for the caller, once per stack.  At rate
   0.1 the estimated number of blocks is within 4 sigma of the truth.  A
   block grown by realloc is one block, its growth data.
   Bad input: a NULL function; a callback that stops early.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none" } */

#include <errno.h>
#include <gc.h>
#include <math.h>
#include "../lib/mptest.h"

#define N 100
#define N_RATE 20000
#define RATE 0.1

static void *keep[5][N];

__attribute__ ((noinline)) void *leaf_normal (void) { return GC_MALLOC (16); }
__attribute__ ((noinline)) void *leaf_atomic (void) { return GC_MALLOC_ATOMIC (48); }
__attribute__ ((noinline)) void *leaf_uncollectable (void) { return GC_MALLOC_UNCOLLECTABLE (24); }
__attribute__ ((noinline)) void *leaf_malloc (void) { return malloc (40); }
/* Not a tail call, or the caller would be the allocating frame.  */
__attribute__ ((noinline)) void *
leaf_custom (void)
{
  void *p = mp_alloc_custom (64);
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

/* The slack of the block allocated since the statistics BEFORE.  */
static double
slack_since (const struct mp_alloc_stats *before)
{
  struct mp_alloc_stats now;
  mp_alloc_stats (&now);
  return (double) (now.bytesSlack - before->bytesSlack);
}

__attribute__ ((noinline)) void
outer (void)
{
  for (int i = 0; i < N; i++)
    {
      keep[0][i] = leaf_normal ();
      keep[1][i] = leaf_atomic ();
      keep[2][i] = leaf_uncollectable ();
      keep[3][i] = leaf_malloc ();
      keep[4][i] = leaf_custom ();
    }
}

/* One block, grown by realloc: one block allocated, 800 bytes of data.  */
__attribute__ ((noinline)) void
leaf_grow (void)
{
  char *volatile p = malloc (8);
  for (size_t n = 16; n <= 800; n += 8)
    p = realloc (p, n);
  free (p);
}

__attribute__ ((noinline)) void
at_rate (void)
{
  for (int i = 0; i < N_RATE; i++)
    {
      void *volatile p = malloc (32);
      free (p);
    }
}

struct want
{
  const char *function;
  enum mp_source kind;
  double data, overhead;        /* per block */
  int gc, freed;
};

static struct want wants[] = {
  { "leaf_normal", MP_SOURCE_NORMAL, 16, 0, 1, 0 },
  { "leaf_atomic", MP_SOURCE_ATOMIC, 48, 0, 1, 0 },
  { "leaf_uncollectable", MP_SOURCE_UNCOLLECTABLE, 24, 0, 1, 0 },
  { "leaf_malloc", MP_SOURCE_MALLOC, 40, 0, 0, 1 },
  { "leaf_custom", MP_SOURCE_CUSTOM, 64, 0, 0, 1 },
};

static int seen[6], calls;
static double rate_count, outer_allocated, outer_copied;
static struct mp_space_totals grown;

static void
check_leaf (const struct mp_space_profile *p, const struct want *w)
{
  const struct mp_space_totals *t = &p->exclusive;
  CHECK_EQ (p->samples, N * w->data / 8);
  CHECK_EQ (t->count, N);
  CHECK_EQ (t->allocated, N * w->data);
  CHECK_EQ (t->overhead, N * w->overhead);
  CHECK_EQ (t->live, w->freed ? 0 : N * w->data);
  for (int g = 0; g < MP_AGES; g++)
    CHECK_EQ (t->copies[g], w->gc ? N * w->data * (g == 3 ? 2 : 1) : 0);
  CHECK_EQ (t->copied, w->gc ? 5 * N * w->data : 0);
  for (int k = 0; k < MP_SOURCES; k++)
    {
      const struct mp_space_amount *a = t->kinds[k];
      int mine = k == (int) w->kind;
      CHECK_EQ (a[0].count, mine ? N : 0);
      CHECK_EQ (a[0].data, mine ? N * w->data : 0);
      CHECK_EQ (a[0].overhead, mine ? N * w->overhead : 0);
      CHECK_EQ (a[1 + 3].count, mine && w->gc ? 2 * N : 0);
      CHECK_EQ (a[1 + 3].overhead, mine && w->gc ? 2 * N * w->overhead : 0);
    }
  /* A leaf is on its own stacks only.  */
  CHECK_EQ (p->inclusive.allocated, t->allocated);
  CHECK_EQ (p->inclusive.copied, t->copied);
}

static int
each (const struct mp_space_profile *p, void *data)
{
  CHECK (data == &calls);
  calls++;
  CHECK_EQ (p->rate_min, RATE);
  CHECK_EQ (p->rate_max, 1);
  for (int i = 0; i < 5; i++)
    if (strcmp (p->function, wants[i].function) == 0)
      {
        seen[i]++;
        check_leaf (p, &wants[i]);
      }
  if (strcmp (p->function, "outer") == 0)
    {
      seen[5]++;
      CHECK_EQ (p->samples, 0);
      CHECK_EQ (p->exclusive.allocated, 0);
      outer_allocated = p->inclusive.allocated;
      outer_copied = p->inclusive.copied;
    }
  if (strcmp (p->function, "at_rate") == 0)
    rate_count = p->exclusive.count;
  if (strcmp (p->function, "leaf_grow") == 0)
    grown = p->exclusive;
  return 0;
}

static int
stop_at_first (const struct mp_space_profile *p, void *data)
{
  (void) p;
  ++*(int *) data;
  return 7;
}

int
main (void)
{
  GC_INIT ();
  outer ();
  wants[0].overhead = (double) GC_size (keep[0][0]) - 16;
  wants[1].overhead = (double) GC_size (keep[1][0]) - 48;
  wants[2].overhead = (double) GC_size (keep[2][0]) - 24;
  /* (The plugin rewrites calls, so these cannot go through a pointer.)  */
  struct mp_alloc_stats before;
  mp_alloc_stats (&before);
  void *volatile p = malloc (40);
  wants[3].overhead = slack_since (&before);
  free (p);
  mp_alloc_stats (&before);
  p = mp_alloc_custom (64);
  wants[4].overhead = slack_since (&before);
  mp_free_custom (p);
  for (int i = 0; i < 5; i++)
    GC_gcollect ();
  for (int i = 0; i < N; i++)
    {
      free (keep[3][i]);
      mp_free_custom (keep[4][i]);
    }
  leaf_grow ();
  CHECK (mp_memprof_start (RATE, 4, &mp_null_tracker) == 0);
  at_rate ();
  CHECK (mp_memprof_stop () == 0);

  CHECK (mp_space_profile_foreach (each, &calls) == 0);
  for (int i = 0; i < 6; i++)
    CHECK_EQ (seen[i], 1);
  double sum = 0, copied = 0;
  for (int i = 0; i < 5; i++)
    {
      sum += N * wants[i].data;
      copied += wants[i].gc ? 5 * N * wants[i].data : 0;
    }
  CHECK_EQ (grown.count, 1);
  CHECK_EQ (grown.allocated, 800);
  CHECK_EQ (grown.live, 0);
  CHECK_EQ (outer_allocated, sum);
  CHECK_EQ (outer_copied, copied);
  /* Each block of 4 words stands for n / (4 RATE) blocks, n binomial.  */
  double sigma = sqrt (N_RATE * (1 - RATE) / (4 * RATE));
  CHECK (fabs (rate_count - N_RATE) < 4 * sigma);

  int n = 0;
  CHECK_EQ (mp_space_profile_foreach (stop_at_first, &n), 7);
  CHECK_EQ (n, 1);
  errno = 0;
  CHECK_EQ (mp_space_profile_foreach (NULL, NULL), -1);
  CHECK_EQ (errno, EINVAL);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
