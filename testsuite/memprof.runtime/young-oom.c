/* The young-block log out of memory (runtime/generations.c): this
   program's __libc_realloc, glibc's function that the runtime calls for
   its own memory, refuses to grow anything to 256 KiB or more once
   `refuse' is set, so that the log
   stops at 16384 entries.  While collections run: one warning, a collection, and
   every block stays logged, and those held through it are promoted.
   With collections disabled: one more warning, and the blocks past the
   log's room go unlogged, which the report counts.  The counts stay
   exact throughout, and the program runs on.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sections=alloc" } */
/* Under ASan the runtime calls ASan's realloc.  */
/* { dg-skip-if "realloc is replaced" { asan } } */

#include <dlfcn.h>
#include <stdio.h>
#include <gc.h>
#include "../lib/mptest.h"

#define REFUSED (256 << 10)     /* bytes */
#define N 100000
#define HELD 1000

void *held[HELD];               /* global: the stores must stay */
static unsigned line_collecting, line_disabled;
static int refuse;

void *
__libc_realloc (void *p, size_t n)
{
  static void *(*next) (void *, size_t);
  if (refuse && n >= REFUSED)
    return NULL;
  if (next == NULL)
    next = (void *(*) (void *, size_t)) dlsym (RTLD_NEXT, "__libc_realloc");
  return next (p, n);
}

int
main (void)
{
  GC_INIT ();
  GC_set_free_space_divisor (1);
  CHECK (GC_expand_hp (64 << 20));      /* no collection comes by itself */
  struct mp_stat before, after;
  mp_quick_stat (&before);
  refuse = 1;
  for (int i = 0; i < N; i++)
    {
      void *p = GC_MALLOC (16); line_collecting = __LINE__;
      if (i < HELD)
        held[i] = p;
    }
  mp_quick_stat (&after);
  /* One each time the log fills.  */
  CHECK (after.minor_collections > before.minor_collections);
  CHECK (after.promoted_words >= before.promoted_words + HELD * W (16));
  fprintf (stderr, "collections disabled\n");
  GC_disable ();
  for (int i = 0; i < N; i++)
    {
      void *p = GC_MALLOC (16); line_disabled = __LINE__;
      (void) p;
    }
  GC_enable ();
  refuse = 0;
  CHECK_EQ (SITE (line_collecting).s.numAllocate, N);
  CHECK_EQ (SITE (line_collecting).minor_words, N * W (16));
  CHECK_EQ (SITE (line_disabled).s.numAllocate, N);
  CHECK_EQ (SITE (line_disabled).minor_words, N * W (16));
  return mpt_done ();
}

/* { dg-output "^memprof: out of memory for the young-block log: collecting early\ncollections disabled\n" } */
/* { dg-output "memprof: out of memory for the young-block log, and no collection empties it: blocks go unlogged, not counted as promoted\n" } */
/* { dg-output "ok\n==== memprof report, pid \[0-9\]+ ====\n== allocator statistics ==\n" } */
/* { dg-output ".*\n== memprof's own memory ==\n.*" } */
/* { dg-output "young-block logs out of memory: \[1-9\]\[0-9\]* blocks \\(\[1-9\]\[0-9\]* words\\) not logged, not counted as promoted\n" } */
/* { dg-output "==== end of memprof report ====\n$" } */
