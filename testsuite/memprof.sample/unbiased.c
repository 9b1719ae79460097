/* Unbiased sampling: a block of n words gets Binomial (n, rate) samples,
   independently of every other block (sample.c).  Checked:
   - the spread: the samples of each of many blocks of one size, from
     malloc and from Boehm, young and major, against Binomial (n, rate)
     with a chi-square test, which fixed-interval sampling (or any gap
     that is not geometric) fails;
   - the mean: the samples of all the blocks of each check within 5
     sigma of words * rate.  The largest check expects 4 million
     samples, so that a bias of 0.5% of the rate puts it 10 sigma off;
   - every size from 1 to 2000 words, from malloc and from Boehm: the
     mean, and that each block reaches the callback its heap says
     (alloc_minor for young GC blocks, alloc_major for large ones and
     malloc), with its size and source.
   Each check fails by chance with a probability under 3e-7 (5 sigma;
   the chi-square statistic past its 1 - 3e-7 quantile).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -lm" } */

#include <math.h>
#include <gc.h>
#include "../lib/mptest.h"

#define MAX_WORDS 2000
#define MAX_SPREAD_WORDS 300    /* the largest block of a spread check */
#define Z 5.0                   /* sigmas */

struct tally
{
  double samples, calls;
  int block;                    /* samples of the block being allocated */
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
  tally.block += (int) a->n_samples;
  tally.calls++;
  if (a->size != tally.expect_size || a->source != tally.expect_source
      || minor != tally.expect_minor || a->n_samples < 1
      || a->n_samples > a->size)
    wrong++;
  return NULL;
}

MPT_ALLOC_CALLBACKS (on_alloc)

/* Blocks of WORDS words from SOURCE next.  */
static void
expect (size_t words, enum mp_source source)
{
  tally.expect_size = words;
  tally.expect_source = source;
  tally.expect_minor = source != MP_SOURCE_MALLOC
                       && words <= MP_MAX_YOUNG_WOSIZE;
}

/* Start sampling at RATE, with the tallies at 0.  */
static void
start (double rate)
{
  memset ((void *) &tally, 0, sizeof tally);
  mpt_start (rate, (struct mp_tracker) { .alloc_minor = mpt_on_minor,
                                         .alloc_major = mpt_on_major });
}

/* Whether SAMPLES from WORDS words at RATE is within 5 sigma.  */
static int
within_5_sigma (double samples, double words, double rate, const char *what)
{
  double mean = words * rate, sigma = sqrt (words * rate * (1 - rate));
  if (fabs (samples - mean) <= Z * sigma)
    return 1;
  fprintf (stderr, "FAIL %s: %.0f samples of %.0f words at rate %g, "
           "expected %.1f +- %g * %.1f\n", what, samples, words, rate, mean,
           Z, sigma);
  return 0;
}

/* The chi-square statistic of HIST, the number of blocks of N words
   that got k samples for each k, BLOCKS blocks in all, against Binomial
   (N, RATE); bins are merged from the left until each expects 5 blocks
   or more, and a short last bin into the one before.  *DF gets the
   degrees of freedom.  */
static double
chi_square (const unsigned long *hist, int n, double rate, double blocks,
            int *df)
{
  double stat = 0, o = 0, e = 0, last_o = 0, last_e = 0;
  int bins = 0;
  for (int k = 0; k <= n; k++)
    {
      o += (double) hist[k];
      e += blocks * exp (lgamma (n + 1.0) - lgamma (k + 1.0)
                         - lgamma (n - k + 1.0) + k * log (rate)
                         + (n - k) * log1p (-rate));
      if (e >= 5 || k == n)
        {
          if (e < 5 && bins > 0)
            {
              stat -= (last_o - last_e) * (last_o - last_e) / last_e;
              o += last_o;
              e += last_e;
              bins--;
            }
          stat += (o - e) * (o - e) / e;
          bins++;
          last_o = o, last_e = e;
          o = e = 0;
        }
    }
  *df = bins - 1;
  return stat;
}

/* Whether STAT, with DF degrees of freedom, is under the chi-square
   quantile that leaves 3e-7 above it (5 sigma), by Wilson and
   Hilferty's approximation, which errs on the high side for small DF.  */
static int
chi_square_fits (double stat, int df, const char *what)
{
  if (df < 1)
    {
      fprintf (stderr, "FAIL %s: no degree of freedom\n", what);
      return 0;
    }
  double a = 2.0 / (9 * df), limit = df * pow (1 - a + Z * sqrt (a), 3);
  if (stat <= limit)
    return 1;
  fprintf (stderr, "FAIL %s: chi-square %.1f with %d degrees of freedom, "
           "limit %.1f\n", what, stat, df, limit);
  return 0;
}

static void *volatile sink;

/* BLOCKS blocks of WORDS words from SOURCE at RATE: each block's samples
   against Binomial (WORDS, RATE), and their total.  */
static void
spread (enum mp_source source, size_t words, double rate, long blocks)
{
  static unsigned long hist[MAX_SPREAD_WORDS + 1];
  char what[64];
  snprintf (what, sizeof what, "%s, %zu words, rate %g",
            source == MP_SOURCE_MALLOC ? "malloc" : "GC_malloc_atomic", words,
            rate);
  memset (hist, 0, sizeof hist);
  start (rate);
  expect (words, source);
  for (long i = 0; i < blocks; i++)
    {
      tally.block = 0;
      if (source == MP_SOURCE_MALLOC)
        {
          sink = malloc (words * sizeof (void *));
          free (sink);
        }
      else
        sink = GC_MALLOC_ATOMIC (words * sizeof (void *));
      hist[tally.block < (int) words ? tally.block : (int) words]++;
    }
  CHECK_EQ (mp_memprof_stop (), 0);
  int df;
  double stat = chi_square (hist, (int) words, rate, (double) blocks, &df);
  CHECK (chi_square_fits (stat, df, what));
  CHECK (within_5_sigma (tally.samples, (double) words * blocks, rate, what));
}

int
main (void)
{
  GC_INIT ();

  /* The spread, and 4e6 samples of 100-word blocks for the mean.  */
  spread (MP_SOURCE_MALLOC, 1, 0.1, 200000);
  spread (MP_SOURCE_MALLOC, 10, 0.3, 100000);
  spread (MP_SOURCE_MALLOC, 100, 0.1, 400000);
  spread (MP_SOURCE_ATOMIC, 64, 0.05, 100000);
  spread (MP_SOURCE_ATOMIC, MAX_SPREAD_WORDS, 0.02, 20000);

  /* malloc: three passes over every size */
  double words = 0;
  start (0.01);
  for (int pass = 0; pass < 3; pass++)
    for (size_t n = 1; n <= MAX_WORDS; n++)
      {
        expect (n, MP_SOURCE_MALLOC);
        sink = malloc (n * sizeof (void *));
        free (sink);
        words += n;
      }
  CHECK_EQ (mp_memprof_stop (), 0);
  CHECK (within_5_sigma (tally.samples, words, 0.01, "malloc, all sizes"));

  /* Boehm, atomic blocks: young up to MP_MAX_YOUNG_WOSIZE words.  At
     rate 0.1 a block of more than 200 words goes unsampled with a
     probability under 1e-9: each of them reaches its callback.  */
  words = 0;
  start (0.1);
  for (size_t n = 1; n <= MAX_WORDS; n++)
    {
      expect (n, MP_SOURCE_ATOMIC);
      sink = GC_MALLOC_ATOMIC (n * sizeof (void *));
      words += n;
    }
  CHECK_EQ (mp_memprof_stop (), 0);
  CHECK (within_5_sigma (tally.samples, words, 0.1,
                         "GC_malloc_atomic, all sizes"));
  CHECK (tally.calls >= MAX_WORDS - 200);
  CHECK_EQ (wrong, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
