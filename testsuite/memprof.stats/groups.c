/* D's groups: numAll for the global statistics and bytesAll per call.
   mp_report_statistics prints every numXxx and nothing else; the
   per-call lines, the bytesXxx D keeps per call.  Counting calls and
   bytes, the lean entries' fast path does work 1 (entry.h).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-stats=numAll -fplugin-arg-memprof-per-call=bytesAll -fplugin-arg-memprof-verbose" } */

#include "../lib/mptest.h"

void *volatile sink;
volatile int ten = 10;

int
main (void)
{
  int line = __LINE__ + 3;
  for (int i = 0; i < ten; i++)
    {
      sink = malloc (100);	/* { dg-message "memprof: malloc -> __mp_malloc_w1" } */
      free (sink);		/* { dg-message "memprof: free -> __mp_free_w1" } */
    }
  sink = calloc (2, 4);		/* { dg-message "memprof: calloc -> __mp_calloc_w1" } */

  CHECK_EQ (mp_alloc_stats_collected (), MP_STATS_numAll);
  CHECK_TEXT (mp_report_statistics,
              "numAllocate:11\n" "numAllocateOK:11\n" "numExpand:0\n"
              "numExpandOK:0\n" "numReallocate:0\n" "numReallocateOK:0\n"
              "numReallocateInPlace:0\n" "numDeallocate:10\n"
              "numForeignDeallocate:0\n");
  char expect[512];
  snprintf (expect, sizeof expect,
            "%s(%d): [bytesAllocated:1000]\n"
            "%s(%d): [bytesAllocated:8]\n"
            "%s(%d): [bytesContracted:1000]\n",
            __FILE__, line, __FILE__, line + 3, __FILE__, line + 1);
  CHECK_TEXT (mp_report_per_call_statistics, expect);
  return mpt_done ();
}

/* { dg-output "== allocator statistics ==\nnumAllocate:11\nnumAllocateOK:11\nnumExpand:0\n.*numForeignDeallocate:0\nnot rewritten: not counted \\(.*\\)\n== memprof's own memory ==\n" } */
/* { dg-output ".*groups\\.c\\(19\\): \\\[bytesAllocated:1000\\\]  malloc in main\n" } */
