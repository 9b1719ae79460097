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

#endif
