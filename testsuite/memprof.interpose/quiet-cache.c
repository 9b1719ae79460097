/* The C library's allocations for the runtime, which calls it while
   quiet (alloc.h), are not counted, even at a call that the program's
   own calls put in the thread's cache of foreign sites (foreign.h):
   qsort's buffer, taken by the program's qsort, then by mp_report's,
   which sorts the rows of the sites below.  The program's next qsort
   is counted again.  */
/* { dg-do run } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1,report=none" } */

#include <stdio.h>
#include <stdlib.h>
#include "../lib/mptest.h"

enum { N = 8000 };              /* longs: qsort's buffer is N * 8 bytes */

static int
cmp (const void *a, const void *b)
{
  long x = *(const long *) a, y = *(const long *) b;
  return (x > y) - (x < y);
}

/* Sort N longs with glibc's qsort, which takes its buffer from malloc
   (more than 1024 bytes): one block counted.  */
static void
sort (void)
{
  long *a = malloc (N * sizeof *a);
  for (long i = 0; i < N; i++)
    a[i] = (i * 7919) % N;
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
  qsort (a, N, sizeof *a, cmp);
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocate - s0.numAllocate, 1);
  free (a);
}

void *volatile sink;

int
main (void)
{
  /* Sites enough for mp_report's sort of their rows to take more than
     1024 bytes.  */
#define SITE8 sink = malloc (8); sink = malloc (8); sink = malloc (8); \
  sink = malloc (8); sink = malloc (8); sink = malloc (8);              \
  sink = malloc (8); sink = malloc (8)
  SITE8;
  SITE8;
  sort ();
  FILE *f = fopen ("/dev/null", "w");
  fputs ("its buffer now\n", f);
  fflush (f);
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
  mp_report (f);
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocate - s0.numAllocate, 0);
  CHECK_EQ (s1.numDeallocate - s0.numDeallocate, 0);
  sort ();
  fclose (f);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
