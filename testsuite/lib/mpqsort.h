/* mpqsort.h -- an allocation of the C library's own, for the tests of
   interposition: glibc's qsort sorts 4096 ints (more than 1024 bytes)
   in a buffer of their size, MPT_QSORT_BYTES, from malloc.  */

#ifndef MPQSORT_H
#define MPQSORT_H

#include <stdlib.h>

#define MPT_QSORT_INTS 4096
#define MPT_QSORT_BYTES (MPT_QSORT_INTS * sizeof (int))

static int
mpt_cmp_int (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

static void
mpt_qsort (void)
{
  static int a[MPT_QSORT_INTS];
  qsort (a, MPT_QSORT_INTS, sizeof *a, mpt_cmp_int);
}

#endif
