/* heap.c -- mp_stat's walk of Boehm's heap.

   Boehm's heap is a set of sections cut into heap blocks (HBLKSIZE, 4 KiB
   here): a used block holds objects of one size (a large object spans
   several blocks), a free block is a run of blocks holding nothing.
   Boehm's public API walks its marked objects
   (GC_enumerate_reachable_objects_inner) but not its blocks, so the
   blocks are walked through what the API says of an address:
   - GC_base is the object an address is in, NULL in a free block or
     outside the heap;
   - GC_is_heap_ptr is true at the start of a free block (its header),
     false inside one and outside the heap;
   - GC_size is the header's size: the object size of a used block, the
     length of a free block.
   So the walk goes from the lowest heap address to the highest, a block
   or a free run at a time, and a page at a time through the gaps between
   sections.  It holds the GC lock: no block changes meanwhile.  */

#include <stdint.h>
#include "internal.h"
#include "generations.h"

#include "gcweak.h"

#define BLOCK 4096u
#define LARGE (BLOCK / 2)       /* larger objects have blocks of their own */
#define MAX_WALK ((uintptr_t) 1 << 36)  /* address span walked at most */

struct walk
{
  uint64_t live_bytes, live_blocks;
  uint64_t free_bytes, free_blocks, largest_free;
  uint64_t fragment_bytes;
  size_t heap_bytes, mapped_free_bytes;   /* Boehm's, at the walk */
  int too_wide;                 /* the sections are too far apart */
};

static void
on_marked (void *obj, size_t bytes, void *data)
{
  struct walk *w = data;
  (void) obj;
  w->live_bytes += bytes;
  w->live_blocks++;
}

/* The used block at P, whose object at BASE is SIZE bytes: count the
   bytes its objects leave unused, and return where the next block is.  */
static uintptr_t
used_block (struct walk *w, uintptr_t p, uintptr_t base, size_t size)
{
  if (size <= LARGE)
    {
      w->fragment_bytes += BLOCK % size;
      return p + BLOCK;
    }
  uintptr_t end = base + (size + BLOCK - 1) / BLOCK * BLOCK;
  w->fragment_bytes += end - base - size;
  return end;
}

static void
walk_blocks (struct walk *w)
{
  uintptr_t lo = (uintptr_t) GC_least_plausible_heap_addr;
  uintptr_t hi = (uintptr_t) GC_greatest_plausible_heap_addr;
  lo = (lo + BLOCK - 1) / BLOCK * BLOCK;
  if (hi > lo && hi - lo > MAX_WALK)
    {
      w->too_wide = 1;
      return;
    }
  for (uintptr_t p = lo; p < hi;)
    {
      void *base = GC_base ((void *) p);
      if (base != NULL)
        p = used_block (w, p, (uintptr_t) base, GC_size (base));
      else if (GC_is_heap_ptr ((void *) p))
        {
          size_t n = GC_size ((void *) p);
          if (n < BLOCK)
            n = BLOCK;          /* never seen; keeps the walk going */
          w->free_blocks++;
          w->free_bytes += n;
          if (n > w->largest_free)
            w->largest_free = n;
          p += n;
        }
      else
        p += BLOCK;
    }
}

static void *
walk_locked (void *data)
{
  struct walk *w = data;
  GC_enumerate_reachable_objects_inner (on_marked, w);
  uint64_t blocks, words;
  mp_young_unmarked (&blocks, &words);
  w->live_blocks += blocks;
  w->live_bytes += words * sizeof (void *);
  walk_blocks (w);
  w->heap_bytes = GC_get_heap_size ();
  w->mapped_free_bytes = GC_get_free_bytes ();
  return NULL;
}

void
mp_heap_walk (struct mp_stat *st)
{
  struct walk w = { 0 };
  GC_call_with_alloc_lock (walk_locked, &w);
  st->live_words = (long) (w.live_bytes / sizeof (void *));
  st->live_blocks = (long) w.live_blocks;
  st->heap_words = (long) (w.heap_bytes / sizeof (void *));
  if (st->top_heap_words < st->heap_words)
    st->top_heap_words = st->heap_words;
  st->free_words = (long) (w.mapped_free_bytes / sizeof (void *));
  st->free_blocks = (long) w.free_blocks;
  st->largest_free = (long) (w.largest_free / sizeof (void *));
  st->fragments = (long) (w.fragment_bytes / sizeof (void *));
  static atomic_int warned;     /* the warning below was given; any thread */
  if (w.too_wide && !atomic_exchange (&warned, 1))
    mp_warn ("Boehm's heap sections span more than %lu GiB of addresses; "
             "mp_stat does not walk its blocks (free_blocks, largest_free "
             "and fragments are 0)", (unsigned long) (MAX_WALK >> 30));
}
