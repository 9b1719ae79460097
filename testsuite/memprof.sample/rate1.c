/* At rate 1 every word is sampled: n_samples is each block's size in
   words, exactly, and the words a realloc adds too.  Tracked malloc
   blocks reach dealloc_major, with the metadata alloc_major returned,
   when freed or realloc'ed (not when the realloc fails); blocks whose
   callback returned NULL are not tracked.
   Callbacks leave errno alone, on allocation and on free; a callback
   that frees a tracked block (a nested dealloc callback) stays a
   callback: what it allocates next is not sampled.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <errno.h>
#include <stdint.h>
#include <gc.h>
#include "../lib/mptest.h"

/* volatile: GCC assumes malloc and free touch no global, and the callbacks
   run inside them (see memprof.h) */
static volatile double samples, words;
static volatile int wrong, allocs, deallocs, bad_meta;
static volatile int keep = 1;           /* return metadata, or NULL */

struct meta
{
  size_t size;
  int magic;
};

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  samples += a->n_samples;
  words += a->size;
  wrong += a->n_samples != a->size;
  allocs++;
  errno = EDOM;                 /* must not leak out */
  if (!keep || (a->source != MP_SOURCE_MALLOC && a->source != MP_SOURCE_CUSTOM))
    return NULL;
  struct meta *m = malloc (sizeof *m);   /* not sampled: in a callback */
  m->size = a->size;
  m->magic = 4242;
  return m;
}

static void
on_dealloc (void *meta, void *data)
{
  struct meta *m = meta;
  bad_meta += data != (void *) &keep || m->magic != 4242;
  deallocs++;
  free (m);
  errno = EIO;                  /* must not leak out of free */
}

static void *volatile sink;
static volatile size_t huge = SIZE_MAX - 4;   /* a realloc that fails */

/* An alloc callback that frees a tracked block, then allocates.  */
static void *victim;
static volatile int nested;

static void *
on_alloc_freeing (const struct mp_allocation *a, void *data)
{
  nested += allocs > 0 && victim == NULL;
  if (victim)
    {
      void *v = victim;
      victim = NULL;
      free (v);                 /* its dealloc_major runs in here */
      sink = malloc (16);       /* still in a callback: not sampled */
      free (sink);
    }
  return on_alloc (a, data);
}

int
main (void)
{
  GC_INIT ();
  mpt_start (1, (struct mp_tracker) { .alloc_minor = on_alloc,
                                      .alloc_major = on_alloc,
                                      .dealloc_major = on_dealloc,
                                      .data = (void *) &keep });

  errno = 0;
  char *p[100];
  for (int i = 0; i < 100; i++)
    p[i] = malloc (i * 8 + 1 + i % 8);    /* i + 1 words */
  CHECK_EQ (errno, 0);
  CHECK_EQ (allocs, 100);
  CHECK_EQ (samples, 100 * 101 / 2);
  CHECK_EQ (words, 100 * 101 / 2);
  for (int i = 0; i < 50; i++)
    free (p[i]);
  CHECK_EQ (deallocs, 50);
  /* a realloc ends the tracked block; the words it adds (500 - (i + 1))
     are sampled as a new block, which the result stands for */
  samples = words = 0;
  for (int i = 50; i < 100; i++)
    p[i] = realloc (p[i], 4000);
  CHECK_EQ (deallocs, 100);
  CHECK_EQ (allocs, 150);
  CHECK_EQ (samples, 50 * 500 - (51 + 100) * 50 / 2);
  for (int i = 50; i < 100; i++)
    free (p[i]);
  CHECK_EQ (deallocs, 150);
  deallocs = 100;

  /* a failed realloc leaves the tracked block as it was */
  p[0] = malloc (8);
  CHECK (realloc (p[0], huge) == NULL);
  CHECK_EQ (deallocs, 100);
  errno = 0;
  free (p[0]);
  CHECK_EQ (deallocs, 101);
  CHECK_EQ (errno, 0);
  deallocs = 100;

  /* untracked: the callback said NULL */
  keep = 0;
  allocs = 0;
  sink = calloc (3, 8);
  free (sink);
  CHECK_EQ (allocs, 1);
  CHECK_EQ (deallocs, 100);

  /* custom blocks: counted, sampled, tracked to mp_free_custom */
  keep = 1;
  allocs = deallocs = 0;
  samples = words = 0;
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  void *c = mp_alloc_custom (1000);
  CHECK (c != NULL);
  CHECK_EQ (allocs, 1);
  CHECK_EQ (samples, 125);
  mp_free_custom (c);
  mp_free_custom (NULL);
  CHECK_EQ (deallocs, 1);
  mp_alloc_stats (&g);
  /* the callbacks' own malloc and free of a struct meta count too */
  CHECK_EQ (g.numAllocate - g0.numAllocate, 2);
  CHECK_EQ (g.bytesAllocated - g0.bytesAllocated, 1000 + sizeof (struct meta));
  CHECK_EQ (g.numDeallocate - g0.numDeallocate, 3);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 0);

  /* GC blocks, young and major */
  samples = words = 0;
  for (int n = 1; n <= 600; n += 7)
    sink = GC_MALLOC (n * sizeof (void *));
  CHECK_EQ (samples, words);
  CHECK_EQ (words, 600 / 7 * (600 / 7 + 1) / 2 * 7 + 600 / 7 + 1);
  CHECK_EQ (wrong, 0);
  CHECK_EQ (bad_meta, 0);
  CHECK_EQ (mp_memprof_stop (), 0);

  /* a callback freeing a tracked block */
  mpt_start (1, (struct mp_tracker) { .alloc_major = on_alloc_freeing,
                                      .dealloc_major = on_dealloc,
                                      .data = (void *) &keep });
  allocs = deallocs = 0;
  victim = malloc (8);          /* tracked */
  sink = malloc (8);            /* its callback frees the victim */
  CHECK_EQ (allocs, 2);
  CHECK_EQ (deallocs, 1);
  CHECK_EQ (nested, 0);
  free (sink);
  CHECK_EQ (mp_memprof_stop (), 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
