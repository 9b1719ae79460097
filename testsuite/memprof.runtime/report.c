/* The exit report, for a known program: its sections in order, with exact
   numbers, and the sites largest first; D's two formats exactly, and the
   whole report on demand.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static void *keep[3];
volatile int hundred = 100, three = 3;	/* no unrolling: one site each */
/* open_memstream's buffer is libc's: free it with libc's own free.  */
void (*volatile libc_free) (void *) = free;

static char *
capture (void (*fn) (FILE *))
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);	/* libc's, not counted */
  fn (f);
  fclose (f);
  return text;
}

int
main (void)
{
  for (int i = 0; i < hundred; i++)
    {
      sink = malloc (30);
      free (sink);
    }
  for (int i = 0; i < three; i++)
    keep[i] = GC_MALLOC (800);

  size_t u = GC_size (keep[0]);
  char expect[2048];

  /* D's reportStatistics: one name:value line per counter.  */
  snprintf (expect, sizeof expect,
	    "numAllocate:103\n" "numAllocateOK:103\n" "numExpand:0\n"
	    "numExpandOK:0\n" "numReallocate:0\n" "numReallocateOK:0\n"
	    "numReallocateInPlace:0\n" "numDeallocate:100\n"
	    "numForeignDeallocate:0\n" "bytesUsed:%zu\n"
	    "bytesAllocated:5400\n" "bytesExpanded:0\n"
	    "bytesContracted:3000\n" "bytesMoved:0\n" "bytesNotMoved:0\n"
	    "bytesSlack:%zu\n" "bytesHighTide:%zu\n",
	    3 * u, 3 * (u - 800), 3 * u);
  char *got = capture (mp_report_statistics);
  if (strcmp (got, expect) != 0)
    {
      fprintf (stderr, "FAIL mp_report_statistics:\n%s--- expected:\n%s",
	       got, expect);
      mpt_failures++;
    }
  libc_free (got);

  /* D's per-call statistics: one line per source line, nonzero counters
     only, largest first.  */
  snprintf (expect, sizeof expect,
	    "%s(32): [numAllocate:100, numAllocateOK:100, bytesAllocated:3000]\n"
	    "%s(36): [numAllocate:3, numAllocateOK:3, bytesAllocated:2400]\n"
	    "%s(33): [numDeallocate:100, bytesContracted:3000]\n",
	    __FILE__, __FILE__, __FILE__);
  got = capture (mp_report_per_call_statistics);
  if (strcmp (got, expect) != 0)
    {
      fprintf (stderr, "FAIL mp_report_per_call_statistics:\n%s"
	       "--- expected:\n%s", got, expect);
      mpt_failures++;
    }
  libc_free (got);

  /* The whole report on demand: its sections in order.  */
  got = capture (mp_report);
  const char *sections[] = {
    "==== memprof report, pid ", "== stat record (v=0x400) ==\n",
    "allocated_words: 300\n", "minor_words: 300\n",
    "== allocator statistics ==\n", "numAllocate:103\n",
    "== allocation sites: 3 of 3, largest first ==\n",
    "(32): [numAllocate:100, numAllocateOK:100, bytesAllocated:3000]  malloc in main\n",
    "(36): [numAllocate:3, numAllocateOK:3, bytesAllocated:2400]  GC_malloc in main\n",
    "(33): [numDeallocate:100, bytesContracted:3000]  free in main\n",
    "==== end of memprof report ====\n"
  };
  const char *at = got;
  for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
    {
      const char *hit = strstr (at, sections[i]);
      if (hit == NULL)
	{
	  fprintf (stderr, "FAIL mp_report: no \"%s\" after offset %td:\n%s",
		   sections[i], at - got, got);
	  mpt_failures++;
	  break;
	}
      at = hit + strlen (sections[i]);
    }
  libc_free (got);
  return mpt_done ();
}

/* The exit report (on stderr), sections in order, exact.  */
/* { dg-output {==== memprof report, pid [0-9]+ ====\n== stat record \(v=0x400\) ==\nallocated_words: 300\nminor_words: 300\npromoted_words: 0\nmajor_words: 0\nminor_collections: 0\nmajor_collections: 0\nheap_words: [1-9][0-9]*\n} } */
/* { dg-output {.*\n== allocator statistics ==\nnumAllocate:103\nnumAllocateOK:103\n.*\nnumDeallocate:100\n.*\nbytesAllocated:5400\n.*} } */
/* { dg-output {== allocation sites: 3 of 3, largest first ==\n[^\n]*report\.c\(32\): \[numAllocate:100, numAllocateOK:100, bytesAllocated:3000\]  malloc in main\n} } */
/* { dg-output {[^\n]*report\.c\(36\): \[numAllocate:3, numAllocateOK:3, bytesAllocated:2400\]  GC_malloc in main\n} } */
/* { dg-output {[^\n]*report\.c\(33\): \[numDeallocate:100, bytesContracted:3000\]  free in main\n==== end of memprof report ====\n} } */
