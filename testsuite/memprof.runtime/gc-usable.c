/* GC blocks are counted in bytesUsed at their usable size, GC_size, on
   allocation and on GC_free alike (memprof.h).  Boehm does not give one
   request size a single object size: with collections running, some
   GC_MALLOC (24) blocks are 48-byte objects.  bytesUsed must follow
   GC_size of each block, and go back to its start once they are all
   freed.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

#define N 100000
#define KEEP 2000
void *keep[KEEP];		/* global: the stores must stay */
void *volatile sink;

int
main (void)
{
  GC_INIT ();
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  long long sum = 0, odd = 0;
  size_t first = 0;
  for (int i = 0; i < N; i++)
    {
      void *q = GC_MALLOC (24);
      size_t u = GC_size (q);
      if (i == 0)
	first = u;
      odd += u != first;
      if (i % 50 == 0)
	keep[i / 50] = q;	/* 2000 kept, freed below */
      else
	{
	  sink = q;
	  sum += (long long) u;	/* dropped: stays counted */
	}
    }
  long long kept = 0;
  for (int i = 0; i < KEEP; i++)
    kept += (long long) GC_size (keep[i]);
  mp_alloc_stats (&g);
  printf ("%lld of %d blocks not of %zu bytes\n", odd, N, first);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, sum + kept);
  for (int i = 0; i < KEEP; i++)
    GC_FREE (keep[i]);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, sum);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
