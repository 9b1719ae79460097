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
   at SITE by T, called from RA; Boehm gave USABLE bytes for it.  */
static inline __attribute__ ((always_inline)) void
mp_count_gc (struct mp_thread *t, const struct mp_site *site, void *base,
             size_t n, size_t usable, enum mp_source source, const void *ra)
{
  struct mp_site_counts *c = mp_counts (t, mp_charge_site (t, site));
  mp_add (&c->c[SC_NUM_ALLOCATE], 1);
  if (MP_UNLIKELY (base == NULL))
    {
      mp_add (&c->c[SC_NUM_ALLOCATE_FAILED], 1);
      return;
    }
  mp_add (&c->c[SC_BYTES_ALLOCATED], (int64_t) n);
  mp_note_alloc (t, (int64_t) usable, (int64_t) (usable - n));
  uint64_t words = mp_words (n);
  int major = source == MP_SOURCE_UNCOLLECTABLE || words > MP_MAX_YOUNG_WOSIZE;
  mp_add (&c->c[major ? SC_MAJOR_WORDS : SC_MINOR_WORDS], (int64_t) words);
  if (MP_LIKELY (!major && words))
    mp_young_log (t, base, words);
  mp_guest_count (t, (int64_t) n, words, major);
  mp_sample (t, words, base, source, ra, usable);
}

/* The same, out of line, with USABLE read from Boehm.  */
void mp_count_gc_alloc (struct mp_thread *t, const struct mp_site *site,
                        void *base, size_t n, enum mp_source source,
                        const void *ra);

#endif
