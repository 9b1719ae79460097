/* Unbiased sampling at rate 0.01: blocks of 1 to 2000 words, from malloc
   and from Boehm, get n_samples whose totals stay within 5 sigma of
   words * rate, for all sizes together and for one-word blocks alone.
   Also: each block reaches the callback its heap says (alloc_minor for
   young GC blocks, alloc_major for large ones and malloc), with its
   size and source.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -lm" } */
/* { dg-timeout 120 } */

#include <math.h>
#include <gc.h>
#include "../lib/mptest.h"

#define RATE 0.01
#define MAX_WORDS 2000

struct tally
{
  double samples, calls;
  size_t expect_size;
  enum mp_source expect_source;
  int expect_minor;
};

static volatile struct tally tally;   /* volatile: see rate1.c */
static volatile int wrong;              /* calls with a bad size, source or heap */

static void *
on_alloc (const struct mp_allocation *a, int minor)
{
  tally.samples += a->n_samples;
  tally.calls++;
  if (a->size != tally.expect_size || a->source != tally.expect_source
      || minor != tally.expect_minor || a->n_samples < 1
      || a->n_samples > a->size)
    wrong++;
  return NULL;
}

MPT_ALLOC_CALLBACKS (on_alloc)

/* Whether SAMPLES from WORDS words is within 5 sigma of the rate.  */
static int
within_5_sigma (double samples, double words, const char *what)
{
  double mean = words * RATE, sigma = sqrt (words * RATE * (1 - RATE));
  if (fabs (samples - mean) <= 5 * sigma)
    return 1;
  fprintf (stderr, "FAIL %s: %.0f samples of %.0f words, expected %.1f +- "
           "5 * %.1f\n", what, samples, words, mean, sigma);
  return 0;
}

static void *volatile sink;

int
main (void)
{
  GC_INIT ();
  mpt_start (RATE, (struct mp_tracker) { .alloc_minor = mpt_on_minor,
                                         .alloc_major = mpt_on_major });

  /* malloc: three passes over every size */
  double words = 0;
  tally.expect_source = MP_SOURCE_MALLOC;
  for (int pass = 0; pass < 3; pass++)
    for (size_t n = 1; n <= MAX_WORDS; n++)
      {
        tally.expect_size = n;
        sink = malloc (n * sizeof (void *));
        free (sink);
        words += n;
      }
  CHECK (within_5_sigma (tally.samples, words, "malloc, all sizes"));

  /* one-word blocks alone */
  memset ((void *) &tally, 0, sizeof tally);
  tally.expect_source = MP_SOURCE_MALLOC;
  tally.expect_size = 1;
  for (int i = 0; i < 200000; i++)
    {
      sink = malloc (sizeof (void *));
      free (sink);
    }
  CHECK (within_5_sigma (tally.samples, 200000, "malloc, one word"));

  /* Boehm, atomic blocks: young up to MP_MAX_YOUNG_WOSIZE words */
  memset ((void *) &tally, 0, sizeof tally);
  tally.expect_source = MP_SOURCE_ATOMIC;
  words = 0;
  for (size_t n = 1; n <= MAX_WORDS; n++)
    {
      tally.expect_size = n;
      tally.expect_minor = n <= MP_MAX_YOUNG_WOSIZE;
      sink = GC_MALLOC_ATOMIC (n * sizeof (void *));
      words += n;
    }
  CHECK (within_5_sigma (tally.samples, words, "GC_malloc_atomic"));
  CHECK_EQ (wrong, 0);
  CHECK (tally.calls > 0);

  CHECK_EQ (mp_memprof_stop (), 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
