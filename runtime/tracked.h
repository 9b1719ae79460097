/* tracked.h -- the sampled blocks followed after their allocation
   (tracked.c).  internal.h includes it: include internal.h.  */

#ifndef MEMPROF_TRACKED_H
#define MEMPROF_TRACKED_H

struct mp_profile_stack;

/* A sampled block, as sample.c hands it to tracked.c.  */
struct mp_sampled
{
  void *block;
  void *meta;                   /* the tracker's metadata, or NULL */
  unsigned session;             /* of the tracker that returned it */
  const uintptr_t *ras;         /* its stack for the profile, innermost
                                   first, or NULL: not in the profile */
  size_t n_ras;
  uint64_t hash;                /* mp_profile_hash's of RAS, if any */
  struct mp_space_amount est;   /* what the block stands for in the
                                   profile: blocks, data and overhead
                                   bytes, each its sample's estimate */
  double rate;                  /* the rate it was sampled at */
  uint64_t n_samples;           /* its sampled words */
  enum mp_source source;
  uint64_t epoch;               /* mp_gc_epoch when it was made */
  int gc, young;                /* a GC block; a young one */
};

int mp_tracked_add (const struct mp_sampled *s);
struct mp_tracked;
struct mp_tracked *mp_tracked_take (void *block, int gc);
void mp_tracked_end (struct mp_thread *t, struct mp_tracked *e);
void mp_tracked_keep (struct mp_tracked *e);
void mp_tracked_free (struct mp_thread *t, void *block);
void mp_tracked_after_reclaim (void);
void mp_tracked_deliver (struct mp_thread *t);
void mp_tracked_forget_all (void);

/* Under mp_profile_lock, before mp_profile_release lets it go, when
   mp_busy.deferred says so: end the frees of sampled blocks that the
   calling thread's signal handlers deferred (tracked.c).  */
void mp_tracked_drain (void);
/* The same, mp_profile_lock not held.  */
void mp_tracked_drain_unlocked (void);

/* Deferred frees lost for want of memory (own.c): their blocks stay
   live in the profile.  */
long mp_tracked_lost (void);

/* Enter and leave one of the sections that mp_busy (thread.h) marks.
   Leaving the last one ends the frees its handlers deferred.  */
static inline void
mp_busy_enter (void)
{
  mp_busy.depth++;
  atomic_signal_fence (memory_order_seq_cst);
}

static inline void
mp_busy_leave (void)
{
  atomic_signal_fence (memory_order_seq_cst);
  mp_busy.depth--;
  atomic_signal_fence (memory_order_seq_cst);
  if (MP_UNLIKELY (mp_busy.deferred) && mp_busy.depth == 0)
    mp_tracked_drain_unlocked ();
}

#endif
