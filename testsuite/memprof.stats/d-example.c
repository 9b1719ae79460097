/* D's own example, StatsCollector!(GCAllocator, Options.bytesUsed): a
   unit built with -fplugin-arg-memprof-stats=bytesUsed and no per-call
   statistics calls the lean entries whose fast path keeps bytesUsed
   alone (work 2, entry.h), and every report shows bytesUsed, exact, and
   nothing else, in D's format.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-stats=bytesUsed -fplugin-arg-memprof-per-call=none -fplugin-arg-memprof-verbose" } */
/* { dg-set-target-env-var MEMPROF "json=report.json" } */

#include "../lib/mptest.h"

void *volatile sink;
static void *kept[10];
volatile int ten = 10;

/* Every site that ran has no per-call statistics to show.  */
static int
no_per_call (const struct mp_site_info *i, void *data)
{
  struct mp_alloc_stats zero;
  memset (&zero, 0, sizeof zero);
  CHECK_EQ (i->collected, 0);
  CHECK (memcmp (&i->stats, &zero, sizeof zero) == 0);
  ++*(int *) data;
  return 0;
}

int
main (void)
{
  for (int i = 0; i < ten; i++)
    {
      sink = malloc (100);	/* { dg-message "memprof: malloc -> __mp_malloc_w2" } */
      free (sink);		/* { dg-message "memprof: free -> __mp_free_w2" } */
    }
  for (int i = 0; i < ten; i++)
    kept[i] = calloc (3, 10);	/* { dg-message "memprof: calloc -> __mp_calloc_w2" } */
  kept[0] = realloc (kept[0], 50);	/* { dg-message "memprof: realloc -> __mp_realloc" } */

  CHECK_EQ (mp_alloc_stats_collected (), MP_STATS_bytesUsed);
  struct mp_alloc_stats s;
  mp_alloc_stats (&s);
  CHECK_EQ (s.bytesUsed, 9 * 30 + 50);
  CHECK_EQ (s.numAllocate, 0);		/* not collected */
  CHECK_EQ (s.bytesHighTide, 0);
  CHECK_TEXT (mp_report_statistics, "bytesUsed:320\n");
  CHECK_TEXT (mp_report_per_call_statistics, "");
  int sites = 0;
  mp_site_foreach (no_per_call, &sites);
  CHECK_EQ (sites, 4);
  return mpt_done ();
}

/* { dg-output "== allocator statistics ==\nbytesUsed:320\nnot rewritten: not counted \\(.*\\)\n== memprof's own memory ==\n.*== allocation sites: no per-call statistics collected ==\n" } */
/* { dg-final { scan-file report.json "^,\"allocator\":\{\"bytesUsed\":320\}$" } } */
/* { dg-final { scan-file report.json "\"stats\":\{\},\"minor_words\"" } } */
/* { dg-final { scan-file-not report.json "numAllocate" } } */
