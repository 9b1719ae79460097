/* boehm.h -- counting the blocks handed out on Boehm's heap.

   Every entry point that gives the program a GC block (boehm.c for
   gc.h's allocators, gcapi.c for the rest of Boehm's API, vm.c for what
   a language VM reports) counts it the same way: the per-site
   allocator statistics, OCaml's words (minor for collectable blocks of
   at most MP_MAX_YOUNG_WOSIZE words, which are logged for the promotion
   check; major for larger and uncollectable ones), the guest procedure
   running (guest.h), and the sampler's countdown.  mp_count_gc is that
   count, inlined into each entry point's fast path.  */

#ifndef MEMPROF_BOEHM_H
#define MEMPROF_BOEHM_H

#include "internal.h"
#include "generations.h"
#include "guest.h"
#include "stats.h"

/* The calling thread's record, the thread registered with Boehm
   first if it is not known to it (starting Boehm first if need be):
   boehm.c.  In a process without libgc it stops the program with one
   line: so a memprof.h function that calls it must be in the plugin's
   list of those that make a unit need libgc (plugin/memprof.cc,
   mp_needs_libgc_p's `starters'), or test mp_gc_linked first.  */
struct mp_thread *mp_gc_self_slow (void);

/* The calling thread's record, the thread known to Boehm.  */
static inline struct mp_thread *
mp_gc_self (void)
{
  struct mp_thread *t = mp_gc_tls;
  return MP_LIKELY (t != NULL) ? t : mp_gc_self_slow ();
}

/* The source of a block of Boehm's object kind KIND: gc_priv.h numbers
   PTRFREE 0, NORMAL 1, UNCOLLECTABLE 2 and AUNCOLLECTABLE 3; the kinds a
   program makes with GC_new_kind (typed objects among them) are
   collectable, with pointers.  */
static inline enum mp_source
mp_gc_source_of_kind (int kind)
{
  return kind == 0 ? MP_SOURCE_ATOMIC
         : kind == 2 || kind == 3 ? MP_SOURCE_UNCOLLECTABLE
         : MP_SOURCE_NORMAL;
}

/* Count BASE (NULL if the allocation failed), N bytes of SOURCE asked
   at SITE by T, called from RA; Boehm gave USABLE bytes for it.  The
   general path: mp_count_gc tries the fast one first.  */
void mp_count_gc_slow (struct mp_thread *t, const struct mp_site *site,
                       void *base, size_t n, size_t usable,
                       enum mp_source source, const void *ra);

/* Add N to C, a counter of the calling thread's that no other thread
   writes, in one instruction where the machine has one.  Other threads
   read it as they read mp_add's (the old value or the new one), and the
   owner cannot be stopped (by Boehm's world stop, or a signal that
   samples) half-way through it; it saves the separate load and store
   that an atomic object's relaxed accesses compile to.  */
static inline __attribute__ ((always_inline)) void
mp_bump (mp_counter *c, int64_t n)
{
  if (__builtin_constant_p (n) && n == 0)
    return;                     /* an asm is never folded away */
#if defined __x86_64__
  __asm__ ("addq %1, %0" : "+m" (*(int64_t *) c) : "er" (n));
#else
  mp_add (c, n);
#endif
}

/* Count what KEEP names of N bytes and WORDS words at C.  */
static inline __attribute__ ((always_inline)) void
mp_count_young_at (struct mp_site_counts *c, size_t n, uint64_t words,
                   unsigned keep)
{
  if (keep & MP_KEEP_CALLS)
    mp_bump (&c->c[SC_NUM_ALLOCATE], 1);
  if (keep & MP_STAT_BIT (bytesAllocated))
    mp_bump (&c->c[SC_BYTES_ALLOCATED], (int64_t) n);
  mp_bump (&c->c[SC_MINOR_WORDS], (int64_t) words);
}

/* The fast path of a young block BASE of N bytes, WORDS words (BASE
   not NULL, WORDS from 1 to MP_MAX_YOUNG_WOSIZE: the caller checked),
   in the common case only: the site and the guest procedure numbered,
   room in the log (none while the thread is not known to Boehm or a
   user allocator's call is under way: generations.c's set_limit, nor
   after a collection decided its entries: decide_log), no
   sample due, bytesUsed far from a flush.  Return 0 with nothing done otherwise.  Each of those is
   tested before the first store, so that the path makes no call: the
   functions it is inlined into need not save registers for one.  Of
   the statistics it counts those KEEP names (stats.h), which but the
   lean entries give as all of them; USABLE is needed only by
   bytesUsed, bytesHighTide and bytesSlack (MP_KEEP_SIZE).  */
static inline __attribute__ ((always_inline)) int
mp_count_young_words (struct mp_thread *t, const struct mp_site *site,
                      void *base, size_t n, uint64_t words, size_t usable,
                      unsigned keep)
{
  /* One test each, not a chain of flags.  */
  struct mp_young *y = &t->young;
  size_t k = atomic_load_explicit (&y->count, memory_order_relaxed);
  if (MP_UNLIKELY (k >= __atomic_load_n (&y->limit, __ATOMIC_RELAXED)))
    return 0;
  unsigned id = __atomic_load_n (&site->id, __ATOMIC_ACQUIRE);
  if (MP_UNLIKELY (id == 0))
    return 0;
  int64_t left = mp_get_counter (&t->sample_left) - (int64_t) words;
  int used = (keep & MP_KEEP_USED) != 0;
  int64_t d = used ? mp_own_get (&t->used_delta) + (int64_t) usable : 0;
  if (MP_UNLIKELY (left < 0 || d > MP_USED_FLUSH))
    return 0;
  /* The guest procedure's number, 0 for none.  */
  const struct mp_site *g = (const struct mp_site *) t->guest_site;
  unsigned gid = 0;
  if (g != NULL
      && MP_UNLIKELY ((gid = __atomic_load_n (&g->id, __ATOMIC_ACQUIRE)) == 0))
    return 0;
  mp_count_young_at (mp_counts_of (t, id), n, words, keep);
  /* The guest procedure's counts (guest.h's mp_guest_count).  */
  if (gid != 0)
    mp_count_young_at (mp_counts_of (t, gid), n, words, MP_STATS_EVERY);
  uint64_t bits
    = atomic_load_explicit (&mp_gc_epoch_bits, memory_order_acquire);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  __atomic_store_n (&e[k], mp_young_entry_bits (base, words, bits),
                    __ATOMIC_RELAXED);
  atomic_store_explicit (&y->count, k + 1, memory_order_release);
  atomic_store_explicit (&t->sample_left, left, memory_order_relaxed);
  if (used)
    {
      mp_own_set (&t->used_delta, d);
      /* Likely: a program that allocates on Boehm's heap seldom frees,
         so bytesUsed climbs to a new peak at almost every block.  */
      if (MP_LIKELY (d > mp_own_get (&t->used_peak)))
        mp_own_set (&t->used_peak, d);
    }
  if (keep & MP_STAT_BIT (bytesSlack))
    mp_bump (&t->bytes_slack, (int64_t) (usable - n));
  return 1;
}

/* The same for a block of N bytes, young if its size is.  */
static inline __attribute__ ((always_inline)) int
mp_count_young_fast (struct mp_thread *t, const struct mp_site *site,
                     void *base, size_t n, size_t usable, unsigned keep)
{
  uint64_t words = mp_words (n);
  if (MP_UNLIKELY (words - 1 >= MP_MAX_YOUNG_WOSIZE || base == NULL))
    return 0;
  return mp_count_young_words (t, site, base, n, words, usable, keep);
}

/* Count BASE, as mp_count_gc_slow says, taking the fast path when it
   can, which counts what KEEP names.  */
static inline __attribute__ ((always_inline)) void
mp_count_gc_as (struct mp_thread *t, const struct mp_site *site, void *base,
                size_t n, size_t usable, enum mp_source source,
                const void *ra, unsigned keep)
{
  if (MP_LIKELY (source != MP_SOURCE_UNCOLLECTABLE
                 && mp_count_young_fast (t, site, base, n, usable, keep)))
    return;
  mp_count_gc_slow (t, site, base, n, usable, source, ra);
}

static inline __attribute__ ((always_inline)) void
mp_count_gc (struct mp_thread *t, const struct mp_site *site, void *base,
             size_t n, size_t usable, enum mp_source source, const void *ra)
{
  mp_count_gc_as (t, site, base, n, usable, source, ra, MP_STATS_EVERY);
}

/* The same, out of line, with USABLE read from Boehm.  */
void mp_count_gc_alloc (struct mp_thread *t, const struct mp_site *site,
                        void *base, size_t n, enum mp_source source,
                        const void *ra);

#endif
