/* marks.h -- Boehm's mark bits, and its objects' sizes, read without a
   call (marks.c).

   The promotion check (generations.c) asks, at the end of each
   collection's marking, whether each young block was marked.  Boehm's
   public answer, GC_is_marked, is a call and a two-level search of the
   block's header, per block; reading the same byte inline needs Boehm's
   private layout.  marks.c knows the layout of the Boehm it was checked
   against, and proves it on the running one before trusting it: until
   then, and for ever if the proof fails, GC_is_marked answers.  The
   same header gives the size of an object that GC_size would, which
   the GC family's fast path needs at every allocation (boehm.c).  */

#ifndef MEMPROF_MARKS_H
#define MEMPROF_MARKS_H

#include <stdint.h>
#include "internal.h"

/* The layout of Boehm's headers it knows (gc_hdrs.h, gc_priv.h) --
   Boehm 8.2 on x86-64, built with threads and parallel marking, as
   Debian's libgc is: a bottom index's key and hash link, a header's
   mark bytes (one per granule) and its objects' size (hb_sz), in
   bytes; the sizes of blocks, of a bottom index and of the top index,
   in log2.  */
#define MP_MARKS_BI_KEY 0x2010
#define MP_MARKS_BI_LINK 0x2018
#define MP_MARKS_HDR_MARKS 0x40
#define MP_MARKS_HDR_SIZE 0x20
#define MP_MARKS_LOG_HBLK 12
#define MP_MARKS_LOG_BOTTOM 10
#define MP_MARKS_LOG_TOP 11

/* GC_top_index, once the layout is proven; NULL until then, and for
   ever if the proof failed.  Set once, under the GC lock.  */
extern const char *const *mp_marks_top_index
  __attribute__ ((visibility ("hidden")));

/* The same once the walk to a header and its objects' size are proven,
   which the GC family's first allocations do (mp_marks_prove_size)
   sooner than the mark bytes' proof can, at a collection.  Set once,
   by any thread.  */
extern const char *const *mp_marks_size_index
  __attribute__ ((visibility ("hidden")));

int mp_marked_slow (void *p);
/* Whether the running Boehm may have the layout, found once as Boehm
   starts, outside any collection.  */
void mp_marks_setup (void);

/* One more answer of GC_size, SIZE for P, an object the caller holds,
   to prove the walk to its header with.  Any thread.  */
void mp_marks_prove_size (void *p, size_t size);

/* The bottom index of the region of Boehm's heap that holds P, an
   address on it, found from *INDEX (mp_marks_top_index or
   mp_marks_size_index); NULL until that is proven, or if the walk does
   not find P's region.  Boehm makes a region's bottom index as its heap
   first reaches the region, under its lock, and never frees it.  */
static inline const char *
mp_marks_bottom (const char *const *const *index, const void *p)
{
  const char *const *top = __atomic_load_n (index, __ATOMIC_ACQUIRE);
  if (MP_UNLIKELY (top == NULL))
    return NULL;
  uintptr_t hi = (uintptr_t) p >> (MP_MARKS_LOG_HBLK + MP_MARKS_LOG_BOTTOM);
  const char *bi = top[hi & (((uintptr_t) 1 << MP_MARKS_LOG_TOP) - 1)];
  while (MP_UNLIKELY (*(const uintptr_t *) (bi + MP_MARKS_BI_KEY) != hi))
    {
      bi = *(const char *const *) (bi + MP_MARKS_BI_LINK);
      if (bi == NULL)
        return NULL;
    }
  return bi;
}

/* The slot of bottom index BI that holds the header of the heap block
   of P, the start of an object on Boehm's heap in BI's region.  Under
   the GC lock, or for an object that the caller holds: its header stays
   while it lives, and Boehm's GC_size reads it without the lock.  */
static inline const char *const *
mp_marks_slot (const char *bi, const void *p)
{
  uintptr_t block = (uintptr_t) p >> MP_MARKS_LOG_HBLK;
  return (const char *const *) bi
         + (block & (((uintptr_t) 1 << MP_MARKS_LOG_BOTTOM) - 1));
}

/* The mark bytes of the heap block that holds P, the start of a small
   object on Boehm's heap (one per granule from the block's start:
   mp_marks_granule), as the collection that just ended marking left
   them; NULL as mp_marks_slot says.  Every small object of a heap
   block shares them, so a caller going through objects in allocation
   order reads them once a block.  Under the GC lock.  */
static inline const char *
mp_marks_of (void *p)
{
  const char *bi = mp_marks_bottom (&mp_marks_top_index, p);
  return bi != NULL ? *mp_marks_slot (bi, p) + MP_MARKS_HDR_MARKS : NULL;
}

/* Where the header of P, the start of an object on Boehm's heap that
   T, the calling thread, holds, has GC_size (P); NULL until
   mp_marks_size_index is proven, or if the walk fails.  The bottom
   index of P's region is T's (gc_region, gc_bottom) when the region is
   the one before, as it mostly is: a test instead of the walk.  */
static inline __attribute__ ((always_inline)) const size_t *
mp_marks_size_in (struct mp_thread *t, const void *p)
{
  uintptr_t region = (uintptr_t) p
                     | (((uintptr_t) 1 << (MP_MARKS_LOG_HBLK
                                           + MP_MARKS_LOG_BOTTOM)) - 1);
  const char *bi = t->gc_bottom;
  if (MP_UNLIKELY (region != t->gc_region))
    {
      bi = mp_marks_bottom (&mp_marks_size_index, p);
      if (bi == NULL)
        return NULL;
      t->gc_region = region;
      t->gc_bottom = bi;
    }
  return (const size_t *) (*mp_marks_slot (bi, p) + MP_MARKS_HDR_SIZE);
}

/* P's granule in its heap block: its mark byte's index.  */
static inline uintptr_t
mp_marks_granule (uintptr_t p)
{
  return (p & (((uintptr_t) 1 << MP_MARKS_LOG_HBLK) - 1)) >> 4;
}

/* Whether P, the start of a small object on Boehm's heap, was marked by
   the collection that just ended marking.  Under the GC lock.  */
static inline int
mp_marked (void *p)
{
  const char *marks = mp_marks_of (p);
  if (MP_UNLIKELY (marks == NULL))
    return mp_marked_slow (p);
  return marks[mp_marks_granule ((uintptr_t) p)] != 0;
}

#endif
