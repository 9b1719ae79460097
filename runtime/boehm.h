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

/* Register the calling thread, T's, with Boehm (starting Boehm first if
   need be): boehm.c.  */
void mp_gc_thread_setup (struct mp_thread *t);

/* The calling thread's record, the thread known to Boehm.  */
static inline struct mp_thread *
mp_gc_self (void)
{
  struct mp_thread *t = mp_self ();
  if (MP_UNLIKELY (t->gc_registered == MP_GC_UNKNOWN))
    mp_gc_thread_setup (t);
  return t;
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

/* The fast path of a young block, in the common case only: the site
   and the guest procedure numbered, no user allocator under way, room
   in the log, no sample due, bytesUsed far from a flush.  Return 0
   with nothing done otherwise.  Each of those is tested before the
   first store, so that the path makes no call: the functions it is
   inlined into need not save registers for one.  */
static inline __attribute__ ((always_inline)) int
mp_count_young_fast (struct mp_thread *t, const struct mp_site *site,
                     void *base, size_t n, size_t usable)
{
  uint64_t words = mp_words (n);
  if (MP_UNLIKELY (base == NULL || words - 1 >= MP_MAX_YOUNG_WOSIZE
                   || t->user_site != NULL))
    return 0;
  unsigned id = __atomic_load_n (&site->id, __ATOMIC_ACQUIRE);
  const struct mp_site *g = (const struct mp_site *) t->guest_site;
  if (MP_UNLIKELY (id == 0 || (g != NULL && g->id == 0)))
    return 0;
  struct mp_young *y = &t->young;
  size_t k = atomic_load_explicit (&y->count, memory_order_relaxed);
  if (MP_UNLIKELY (k >= y->limit))
    return 0;
  int64_t left = mp_get_counter (&t->sample_left) - (int64_t) words;
  int64_t d = mp_get_counter (&t->used_delta) + (int64_t) usable;
  if (MP_UNLIKELY (left < 0 || d > MP_USED_FLUSH))
    return 0;
  struct mp_site_counts *c
    = (struct mp_site_counts *) t + (MP_RECORD_SLOTS - 1 + id);
  mp_add (&c->c[SC_NUM_ALLOCATE], 1);
  mp_add (&c->c[SC_BYTES_ALLOCATED], (int64_t) n);
  mp_add (&c->c[SC_MINOR_WORDS], (int64_t) words);
  uint64_t epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_acquire);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  __atomic_store_n (&e[k], mp_young_entry (base, words, epoch),
                    __ATOMIC_RELAXED);
  atomic_store_explicit (&y->count, k + 1, memory_order_release);
  atomic_store_explicit (&t->sample_left, left, memory_order_relaxed);
  atomic_store_explicit (&t->used_delta, d, memory_order_relaxed);
  if (d > mp_get_counter (&t->used_peak))
    atomic_store_explicit (&t->used_peak, d, memory_order_relaxed);
  if (usable != n)
    mp_add (&t->bytes_slack, (int64_t) (usable - n));
  if (g != NULL)
    mp_guest_count (t, (int64_t) n, words, 0);
  return 1;
}

/* Count BASE, as mp_count_gc_slow says, taking the fast path when it
   can.  */
static inline __attribute__ ((always_inline)) void
mp_count_gc (struct mp_thread *t, const struct mp_site *site, void *base,
             size_t n, size_t usable, enum mp_source source, const void *ra)
{
  if (MP_LIKELY (source != MP_SOURCE_UNCOLLECTABLE
                 && mp_count_young_fast (t, site, base, n, usable)))
    return;
  mp_count_gc_slow (t, site, base, n, usable, source, ra);
}

/* The same, out of line, with USABLE read from Boehm.  */
void mp_count_gc_alloc (struct mp_thread *t, const struct mp_site *site,
                        void *base, size_t n, enum mp_source source,
                        const void *ra);

#endif
