/* OCaml's identity, exactly: minor_words + major_words - promoted_words
   is the number of words the program allocated (the sum of ceil(n/8)),
   through collections that promote some blocks and reclaim others; the
   report's allocated_words line says the same number.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

#define ROUNDS 10
#define PER_ROUND 20000
#define KEEP 1000

void *keep[KEEP];		/* global: the stores must stay */
void *volatile sink;


static int
sum_words (const struct mp_site_info *i, void *data)
{
  double *w = data;
  w[0] += i->minor_words;
  w[1] += i->major_words;
  return 0;
}

int
main (void)
{
  unsigned long expect = 0, expect_minor = 0, expect_major = 0;
  struct mp_stat st0, st;
  mp_quick_stat (&st0);
  for (int r = 0; r < ROUNDS; r++)
    {
      for (int i = 0; i < PER_ROUND; i++)
	{
	  size_t n = (i % 100 == 0) ? 3000 : 8 + (size_t) (i * 37 % 500);
	  void *p = (i & 1) ? GC_MALLOC (n) : GC_MALLOC_ATOMIC (n);
	  if (i % 20 == 0)
	    keep[(i / 20) % KEEP] = p;
	  else
	    sink = p;
	  expect += W (n);
	  if (W (n) > MP_MAX_YOUNG_WOSIZE)
	    expect_major += W (n);
	  else
	    expect_minor += W (n);
	}
      GC_gcollect ();
    }

  double minor, promoted, major;
  mp_counters (&minor, &promoted, &major);
  mp_quick_stat (&st);
  printf ("expected allocated_words: %lu\n", expect);
  CHECK_EQ (minor, expect_minor);
  CHECK_EQ (major - promoted, expect_major);
  CHECK_EQ (minor + major - promoted, expect);
  CHECK (promoted > 0);
  CHECK (promoted <= minor);
  CHECK (st.major_collections - st0.major_collections >= ROUNDS);
  CHECK (st.minor_collections >= st.major_collections);
  CHECK_EQ (st.minor_words, minor);
  CHECK_EQ (st.promoted_words, promoted);
  CHECK_EQ (st.major_words, major);
  CHECK_EQ (mp_allocated_bytes (), expect * sizeof (void *));

  double w[2] = { 0, 0 };
  mp_site_foreach (sum_words, w);
  CHECK_EQ (w[0], expect_minor);
  CHECK_EQ (w[1], expect_major);
  return mpt_done ();
}

/* 10 rounds of 20000 blocks, in each 200 of 3000 bytes (375 words) and
   19800 of 8 + (i*37 % 500) bytes: 7222800 words in all.  */
/* { dg-output "expected allocated_words: 7222800\n" } */
/* { dg-output ".*\nallocated_words: 7222800\n" } */
