/* The stat record: mp_quick_stat leaves the heap-walk fields at zero,
   mp_stat fills the heap fields; mp_counters, mp_minor_words and
   mp_allocated_bytes agree; mp_print_stat prints OCaml's layout.  The
   program's numbers are known: 1000 blocks of 80 bytes held in a static
   array (10000 minor words, all promoted by the one collection), 3 of
   4096 bytes (1536 major words); collections are disabled while it
   allocates, so there is exactly one, GC_gcollect's.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

void *keep[1003];		/* global: the stores must stay */

int
main (void)
{
  GC_INIT ();
  GC_disable ();
  for (int i = 0; i < 1000; i++)
    keep[i] = GC_MALLOC (80);
  for (int i = 1000; i < 1003; i++)
    keep[i] = GC_MALLOC (4096);
  GC_enable ();
  GC_gcollect ();

  double minor, promoted, major;
  mp_counters (&minor, &promoted, &major);
  CHECK_EQ (minor, 10000);
  CHECK_EQ (promoted, 10000);
  CHECK_EQ (major, 10000 + 1536);
  CHECK_EQ (mp_minor_words (), minor);
  CHECK_EQ (mp_allocated_bytes (), 8 * (minor + major - promoted));
  CHECK_EQ (mp_allocated_bytes (), 8 * (10000 + 1536));
  double m2;
  mp_counters (&m2, NULL, NULL);	/* NULL pointers allowed */
  CHECK_EQ (m2, minor);

  struct mp_stat q, s;
  memset (&q, 0x55, sizeof q);
  mp_quick_stat (&q);
  CHECK_EQ (q.minor_words, minor);
  CHECK_EQ (q.promoted_words, promoted);
  CHECK_EQ (q.major_words, major);
  CHECK_EQ (q.minor_collections, 1);
  CHECK_EQ (q.major_collections, 1);
  CHECK_EQ (q.live_words, 0);
  CHECK_EQ (q.live_blocks, 0);
  CHECK_EQ (q.free_words, 0);
  CHECK_EQ (q.free_blocks, 0);
  CHECK_EQ (q.largest_free, 0);
  CHECK_EQ (q.fragments, 0);
  CHECK_EQ (q.compactions, 0);
  CHECK_EQ (q.forced_major_collections, 0);
  CHECK (q.heap_words > 0);
  CHECK (q.top_heap_words >= q.heap_words);

  memset (&s, 0x55, sizeof s);
  mp_stat (&s);
  CHECK_EQ (s.minor_words, minor);
  CHECK_EQ (s.major_words, major);
  CHECK_EQ (s.minor_collections, 1);
  CHECK_EQ (s.major_collections, 1);
  CHECK_EQ (s.heap_words, (long) (GC_get_heap_size () / sizeof (void *)));
  CHECK (s.heap_words > 0);
  CHECK (s.top_heap_words >= s.heap_words);
  /* memprof.h: "heap_words, heap_chunks and top_heap_words describe
     Boehm's heap": a heap of heap_words > 0 has at least one chunk.  */
  CHECK (s.heap_chunks > 0);
  /* The walk: our 1003 blocks are live, 12 words each for the 80-byte
     ones (Boehm's 16-byte granules), the others a whole 4 KiB block each
     and a fragment of the next, and the walk's own slack (memprof.h).  */
  CHECK (s.live_blocks >= 1003 && s.live_blocks <= 1003 + 100);
  CHECK (s.live_words >= 1000 * 12 + 3 * 512);
  CHECK (s.live_words <= 1000 * 12 + 3 * 1024 + 100 * 32);
  CHECK (s.fragments >= 3 * 511);
  CHECK (s.stack_size > 0);
  CHECK (s.stack_size >= q.stack_size && s.stack_size - q.stack_size < 64);
  CHECK (s.free_words >= 0);
  CHECK (s.live_words + s.free_words <= s.heap_words);

  mp_print_stat (stdout);
  fflush (stdout);
  (void) keep;
  return mpt_done ();
}

/* { dg-output "(^|\n)minor_collections:      1\nmajor_collections:      1\ncompactions:            0\nforced_major_collections: 0\n\n" } */
/* { dg-output "minor_words:    10000\npromoted_words: 10000\nmajor_words:    11536\n\n" } */
/* { dg-output "top_heap_words: \[0-9\]+\nheap_words:     *\[0-9\]+\nlive_words:     *\[0-9\]+\nfree_words:     *\[0-9\]+\nlargest_free:   *\[0-9\]+\nfragments:      *\[0-9\]+\n\n" } */
/* { dg-output "live_blocks: \[0-9\]+\nfree_blocks: \[0-9\]+\nheap_chunks: \[0-9\]+\nok\n" } */
