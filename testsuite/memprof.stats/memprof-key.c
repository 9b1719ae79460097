/* MEMPROF's stats= and per_call= narrow the choice at run time, for code
   built with every statistic: the reports show the narrowed choice
   only, the global ones exact.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "stats=numAllocate+bytesUsed,per_call=numDeallocate+bytesAll" } */

#include "../lib/mptest.h"

volatile int ten = 10;
char *kept;
void *volatile sink;

int
main (void)
{
  int at = __LINE__ + 1;
  kept = strdup ("narrowed at run time");
  for (int i = 0; i < ten; i++)
    free ((sink = malloc (100)));

  CHECK_EQ (mp_alloc_stats_collected (),
            MP_STATS_numAllocate | MP_STATS_bytesUsed);
  struct mp_alloc_stats s;
  mp_alloc_stats (&s);
  CHECK_EQ (s.numAllocate, 11);
  CHECK_EQ (s.numDeallocate, 0);	/* counted, not chosen: 0 */
  CHECK_TEXT (mp_report_statistics, "numAllocate:11\nbytesUsed:21\n");
  char expect[512];
  snprintf (expect, sizeof expect,
            "%s(%d): [numDeallocate:10, bytesAllocated:1000, "
            "bytesContracted:1000]\n"
            "%s(%d): [bytesAllocated:21]\n",
            __FILE__, at + 2, __FILE__, at);
  CHECK_TEXT (mp_report_per_call_statistics, expect);
  return mpt_done ();
}

/* { dg-output "== allocator statistics ==\nnumAllocate:11\nbytesUsed:21\nnot rewritten: not counted \\(.*\\)\n== memprof's own memory ==\n" } */
/* { dg-output ".*memprof-key\\.c\\(20\\): \\\[numDeallocate:10, bytesContracted:1000\\\]  free in main\n" } */
