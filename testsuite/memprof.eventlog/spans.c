/* Every kind of event, for a known program: each collection's phases
   (minor, major, mark, reclaim), as many as the stat record counts;
   forced collections and what forced them; a compaction; heap growth,
   as often as Boehm's heap grew; finalisers run; the tracker's
   callbacks, as often as they ran; the report's own writing at exit.
   The file parses as JSON, and in each thread every span that begins
   ends, nested, with time going forward.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=log.json,report=report.txt,json=report.json" } */

#include <gc.h>
#include "../lib/mptest.h"

#define N 10
static void *young[N];
void *volatile sink;

/* The tracker's callbacks that ran, by kind.  */
enum { ALLOC_MINOR, ALLOC_MAJOR, PROMOTE, DEALLOC_MINOR, DEALLOC_MAJOR };
static const char *const kinds[] = {
  "alloc_minor", "alloc_major", "promote", "dealloc_minor", "dealloc_major"
};
static int calls[5];
static volatile int rung;

static void *
on_alloc (const struct mp_allocation *a, int is_young)
{
  (void) a;
  calls[is_young ? ALLOC_MINOR : ALLOC_MAJOR]++;
  return &calls;
}
MPT_ALLOC_CALLBACKS (on_alloc)

static void *
on_promote (void *meta, void *data)
{
  (void) data;
  calls[PROMOTE]++;
  return meta;
}

static void
on_dealloc_minor (void *meta, void *data)
{
  (void) meta, (void) data;
  calls[DEALLOC_MINOR]++;
}

static void
on_dealloc_major (void *meta, void *data)
{
  (void) meta, (void) data;
  calls[DEALLOC_MAJOR]++;
}

static void
ring (void *data)
{
  (void) data;
  rung++;
}

int
main (void)
{
  GC_INIT ();
  for (int i = 0; i < 20000; i++)	/* the heap grows */
    sink = GC_MALLOC (1000);
  struct mp_alarm *alarm = mp_create_alarm (ring, NULL);
  mpt_start (1, (struct mp_tracker) { mpt_on_minor, mpt_on_major, on_promote,
                                      on_dealloc_minor, on_dealloc_major,
                                      NULL });
  for (int i = 0; i < N; i++)
    young[i] = GC_MALLOC (32);
  sink = malloc (64);
  free (sink);
  mp_minor ();			/* promotes the young blocks */
  memset (young, 0, sizeof young);
  mp_major ();
  mp_full_major ();
  mp_compact ();
  mp_memprof_stop ();
  mp_delete_alarm (alarm);
  CHECK (rung > 0);
  CHECK_EQ (calls[ALLOC_MINOR], N);
  CHECK_EQ (calls[ALLOC_MAJOR], 1);
  CHECK_EQ (calls[PROMOTE], N);

  struct mp_stat st;
  mp_stat (&st);
  FILE *f = fopen ("expect.txt", "w");
  fprintf (f, "span minor %ld\nspan major %ld\nspan compaction %ld\n"
           "instant heap growth %ld\ncounter heap %ld\n",
           st.minor_collections, st.major_collections, st.compactions,
           st.heap_chunks - 1, st.heap_chunks - 1);
  fprintf (f, "forced mp_minor 1\nforced mp_major 1\nforced mp_full_major 1\n"
           "forced mp_compact 1\nspan forced 4\n");
  for (int k = 0; k < 5; k++)
    if (calls[k])
      fprintf (f, "span %s %d\n", kinds[k], calls[k]);
  fclose (f);
  return mpt_done ();
}

/* { dg-final { scan-eventlog log.json "^parsed \[0-9\]+ events, closed$" } } */
/* { dg-final { scan-eventlog log.json "^balanced$" } } */
/* { dg-final { scan-eventlog log.json "^expected: ok$" expect.txt } } */
/* { dg-final { scan-eventlog log.json "^span finalisers \[1-9\]" } } */
/* { dg-final { scan-eventlog log.json "^span major \[1-9\]" } } */
/* { dg-final { scan-eventlog log.json "^instant heap growth \[1-9\]" } } */
/* { dg-final { scan-eventlog log.json "^span exit report 1$" } } */
/* { dg-final { scan-eventlog log.json "^span text 1$" } } */
/* { dg-final { scan-eventlog log.json "^span json 1$" } } */
/* { dg-final { scan-eventlog log.json "^threads 1$" } } */
/* { dg-final { scan-dir-not "*.tmp*" } } */
