/* Choosing no statistic at all is allowed: the report says that none
   was collected, D's reports print nothing, and the stat record, which
   is OCaml's and no choice of D's, stays exact.  The lean entries' fast
   path does work 0 (entry.h): no counter of D's, no GC_size.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-stats=none -fplugin-arg-memprof-per-call=none -fplugin-arg-memprof-verbose" } */
/* mptest.h's helpers of Boehm's tests are rewritten too.  */
/* { dg-prune-output "mptest.h:\[0-9\]+:\[0-9\]+: note: memprof:" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "json=report.json" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
volatile int hundred = 100;

int
main (void)
{
  GC_INIT ();			/* { dg-message "memprof: GC_init -> __mp_GC_init" } */
  for (int i = 0; i < hundred; i++)
    sink = GC_MALLOC (24);	/* { dg-message "memprof: GC_malloc -> __mp_GC_malloc_w0" } */
  for (int i = 0; i < hundred; i++)
    sink = GC_MALLOC_ATOMIC (40);	/* { dg-message "memprof: GC_malloc_atomic -> __mp_GC_malloc_atomic_w0" } */
  for (int i = 0; i < hundred; i++)
    {
      sink = malloc (8);	/* { dg-message "memprof: malloc -> __mp_malloc_w0" } */
      free (sink);		/* { dg-message "memprof: free -> __mp_free_w0" } */
    }

  CHECK_EQ (mp_alloc_stats_collected (), 0);
  CHECK_TEXT (mp_report_statistics, "");
  CHECK_TEXT (mp_report_per_call_statistics, "");
  struct mp_stat st;
  mp_quick_stat (&st);
  CHECK_EQ (st.minor_words, 100 * W (24) + 100 * W (40));
  return mpt_done ();
}

/* { dg-output "== stat record \\(v=0x400\\) ==\nallocated_words: 800\nminor_words: 800\n" } */
/* { dg-output ".*== allocator statistics ==\nno statistics collected\nnot rewritten: not counted \\(.*\\)\n== memprof's own memory ==\n" } */
/* { dg-output ".*== allocation sites: no per-call statistics collected ==\n" } */
/* { dg-final { scan-file report.json "^,\"allocator\":\{\}$" } } */
