/* gc_inline.h's macros pop objects from a per-thread free list in the
   program's own code.  Each object popped is one allocation at the
   macro's line, exactly, of the granules the macro allocates (one for
   none; its size a constant or not); the refills (GC_generic_malloc_many) count nothing; sizes past the tiny
   free lists take the macro's GC_malloc_kind, at the same line.  Young
   objects are logged: those still held at a collection are promoted,
   exactly.  Four threads, each with its own free lists.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#define GC_THREADS
#include <pthread.h>
#include <gc.h>
#include <gc/gc_inline.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 3000
#define KEEP 100

void *volatile sink;
/* This thread's free lists, of objects with pointers and of atomic
   ones: a list holds one kind.  Boehm does not trace through the
   atomic ones: the test pops them with collections disabled.  */
static __thread void **fl, **atomic_fl;
static void **kept[THREADS];
static unsigned l_cons, l_words, l_atomic, l_big, l_none, l_var, l_vatom;
/* 3, which the compiler cannot know.  */
static volatile int three = 3;

static void *
worker (void *arg)
{
  int id = (int) (long) arg;
  fl = GC_MALLOC_UNCOLLECTABLE (GC_TINY_FREELISTS * sizeof (void *));
  atomic_fl = GC_MALLOC_UNCOLLECTABLE (GC_TINY_FREELISTS * sizeof (void *));
  void **keep = kept[id];
  for (int i = 0; i < N; i++)
    {
      void *c, *w, *a, *b, *z, *v, *va;
      size_t words = (size_t) (i % three) * 2;   /* 0, 2 or 4 */
      GC_CONS (c, sink, sink, fl); l_cons = __LINE__;
      GC_MALLOC_WORDS (w, 5, fl); l_words = __LINE__;
      GC_MALLOC_ATOMIC_WORDS (a, 3, atomic_fl); l_atomic = __LINE__;
      GC_MALLOC_WORDS (b, 400, fl); l_big = __LINE__;
      GC_MALLOC_WORDS (z, 0, fl); l_none = __LINE__;
      GC_MALLOC_WORDS (v, words, fl); l_var = __LINE__;
      GC_MALLOC_ATOMIC_WORDS (va, words + 1, atomic_fl); l_vatom = __LINE__;
      CHECK (c && w && a && b && z && v && va);
      sink = z;
      sink = v;
      sink = va;
      sink = c;
      sink = w;
      sink = a;
      sink = b;
      if (i < KEEP)
	keep[i] = c;
    }
  return NULL;
}

int
main (void)
{
  GC_set_all_interior_pointers (0);	/* as gc_inline.h wants */
  GC_INIT ();
  double minor0, promoted0, major0, minor1, promoted1, major1;
  for (int i = 0; i < THREADS; i++)
    kept[i] = GC_MALLOC_UNCOLLECTABLE (KEEP * sizeof (void *));
  mp_counters (&minor0, &promoted0, &major0);
  GC_disable ();		/* every object young until the collection */
  pthread_t th[THREADS];
  for (long i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, worker, (void *) i), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join (th[i], NULL);
  GC_enable ();
  const unsigned long n = THREADS * N;
  /* GC_CONS: 2 words, 1 granule; 5 words are 3 granules (48 bytes), 3
     words 2 granules; 400 words are past the tiny lists: GC_malloc_kind
     of 400 words, major.  0 words are a granule; in turn 0, 2 and 4
     words are 1, 1 and 2 granules (a third of N each), 1, 3 and 5 words
     1, 2 and 3.  */
  CHECK_SITE (l_cons, "GC_CONS", n, n * 16, n * 2, 0);
  CHECK_SITE (l_words, "GC_MALLOC_WORDS", n, n * 48, n * 6, 0);
  CHECK_SITE (l_atomic, "GC_MALLOC_ATOMIC_WORDS", n, n * 32, n * 4, 0);
  CHECK_SITE (l_big, "GC_malloc_kind", n, n * 3200, 0, n * 400);
  CHECK_SITE (l_none, "GC_MALLOC_WORDS", n, n * 16, n * 2, 0);
  CHECK_SITE (l_var, "GC_MALLOC_WORDS", n, n / 3 * 64, n / 3 * 8, 0);
  CHECK_SITE (l_vatom, "GC_MALLOC_ATOMIC_WORDS", n, n / 3 * 96,
              n / 3 * 12, 0);
  mp_counters (&minor1, &promoted1, &major1);
  CHECK_EQ (minor1 - minor0, n * (2 + 6 + 4 + 2) + n / 3 * (8 + 12));
  CHECK_EQ (promoted1 - promoted0, 0);

  /* The kept conses survive the collection: promoted, 2 words each.
     Nothing else young is held (the threads are gone, the conses point
     to major blocks, and collect clears the stack), but the collector
     is conservative: a stale copy of a pointer may keep a few more.  */
  collect ();
  mp_counters (&minor1, &promoted1, &major1);
  CHECK (promoted1 - promoted0 >= THREADS * KEEP * 2);
  CHECK (promoted1 - promoted0 <= THREADS * KEEP * 2 + THREADS * 4 * 12);
  for (int i = 0; i < THREADS; i++)
    for (int k = 0; k < KEEP; k++)
      CHECK (GC_base (kept[i][k]) == kept[i][k]);
  return mpt_done ();
}

/* { dg-output "ok\n" } */
