/* generations.h -- OCaml's generational accounting on Boehm's heap
   (generations.c), and Boehm's callbacks (hooks.c): what the collector
   counts, the per-thread log of young blocks that the allocators append
   to, and the minor heap budget.  */

#ifndef MEMPROF_GENERATIONS_H
#define MEMPROF_GENERATIONS_H

#include "internal.h"

/* Collections completed; the collector bumps it with the world stopped.
   Hidden, as every symbol of the runtime's but its API is: declared so,
   it is read where it is, not through the GOT, by the fast paths.  */
extern _Atomic uint64_t mp_gc_epoch __attribute__ ((visibility ("hidden")));
/* mp_gc_epoch & MP_EPOCH_MASK, the bits of it that a young-log entry
   holds, stored with it: the fast paths log without masking.  */
extern _Atomic uint64_t mp_gc_epoch_bits
  __attribute__ ((visibility ("hidden")));
extern mp_counter mp_promoted_words;
extern mp_counter mp_minor_collections, mp_major_collections;
extern mp_counter mp_top_heap_bytes;
extern mp_counter mp_heap_chunks;
extern mp_counter mp_young_unlogged, mp_young_unlogged_words;

int mp_gc_setup (void);
void mp_gc_setup_if_started (void);
void mp_gc_setup_fork (enum mp_fork_step step);
int mp_gc_started (void);
void mp_young_log_slow (struct mp_thread *t, void *base, uint64_t words);

/* Young-log entries: see generations.c.  */
#define MP_EPOCH_MASK UINT64_C (0xf)
#define MP_ADDR_MASK UINT64_C (0x0000fffffffffff0)
#define MP_WORDS_SHIFT 48

/* The entry of BASE, of WORDS words, logged when mp_gc_epoch_bits was
   BITS.  */
static inline uint64_t
mp_young_entry_bits (void *base, uint64_t words, uint64_t bits)
{
  return (uintptr_t) base | bits | (words << MP_WORDS_SHIFT);
}

static inline uint64_t
mp_young_entry (void *base, uint64_t words, uint64_t epoch)
{
  return mp_young_entry_bits (base, words, epoch & MP_EPOCH_MASK);
}

/* Log BASE, a young block of WORDS words just allocated by T, with the
   epoch as it is now (generations.c says why that is right).  */
static inline __attribute__ ((always_inline)) void
mp_young_log (struct mp_thread *t, void *base, uint64_t words)
{
  struct mp_young *y = &t->young;
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  if (MP_UNLIKELY (n >= __atomic_load_n (&y->limit, __ATOMIC_RELAXED)))
    {
      mp_young_log_slow (t, base, words);
      return;
    }
  uint64_t epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_acquire);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  __atomic_store_n (&e[n], mp_young_entry (base, words, epoch),
                    __ATOMIC_RELAXED);
  atomic_store_explicit (&y->count, n + 1, memory_order_release);
}
void mp_young_forget (struct mp_thread *t, void *base);

/* The epoch of BASE, the young block T logged last (mp_young_log): its
   entry's, read before any wait for a collection in the log's slow path,
   so that the sample and the counters see the block live through the
   same collections.  The epoch now if the block is not T's last entry
   (it went unlogged).  */
uint64_t mp_young_epoch_of (struct mp_thread *t, const void *base);

/* The minor heap budget: mp_young_set_budget sets it for every thread;
   a thread sees it at its next log slow path or sampling slow path
   (mp_young_budget_seen tells if it has).  */
extern _Atomic unsigned mp_budget_gen;
void mp_young_set_budget (uint64_t words);
void mp_young_budget_check (struct mp_thread *t);
void mp_young_claim (struct mp_thread *t);

static inline int
mp_young_budget_seen (const struct mp_thread *t)
{
  return t->young.budget_gen
         == atomic_load_explicit (&mp_budget_gen, memory_order_relaxed);
}

/* Young blocks logged since the last collection and not marked, with
   their words: the part of the live heap Boehm's mark bits miss.  Under
   the GC lock.  */
void mp_young_unmarked (uint64_t *blocks, uint64_t *words);

/* Note the heap's size now: a verbose message if it shrank.  */
void mp_heap_note_size (void);

/* heap.c: mp_stat's walk of Boehm's heap.  */
void mp_heap_walk (struct mp_stat *st);

/* What our Boehm callbacks do (generations.c); hooks.c calls them, then
   the program's.  Under the GC lock.  */
void mp_gc_on_event (int event);
void mp_gc_on_full_start (void);
void mp_gc_on_heap_resize (unsigned long new_size);

/* Put our callbacks in place, keeping the program's to call after ours
   (hooks.c).  Without the GC lock.  Return 1 if AFTER_START and one of
   ours had been replaced by code built without the plugin, whose
   collections went uncounted meanwhile.  */
int mp_hooks_install (int after_start);

/* Whether this thread runs Boehm's callbacks, ours and the program's
   (hooks.c), under Boehm's lock: then nothing that calls Boehm may run,
   and what waits for it runs at the next allocation after them.  */
int mp_hooks_busy (void);

#endif
