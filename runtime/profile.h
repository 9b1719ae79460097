/* profile.h -- the report's own profile of the samples (profile.c):
   what each call stack allocated, and what became of it.  */

#ifndef MEMPROF_PROFILE_H
#define MEMPROF_PROFILE_H

#include <pthread.h>
#include "fork.h"
#include "internal.h"

/* The estimates of one call stack (and kind) of the report's profile.  */
struct mp_profile_values
{
  /* First what each sample adds to: the lines it reads (profile.c).  */
  struct mp_space_amount allocated;
  double live_count, live;      /* blocks and data bytes not dead yet */
  double young;                 /* data bytes allocated young */
  uint64_t samples;             /* sampled words */
  double promoted;              /* data bytes promoted */
  struct mp_space_amount copies[MP_AGES];  /* survived at age g */
};

/* A copy of one record, for the report: RAS, innermost first, stay
   valid for ever (records are never freed), or until
   mp_profile_rows_free when the row owns them.  */
struct mp_profile_row
{
  const uintptr_t *ras;
  size_t n_ras;
  int owned;                    /* RAS is the row's: a guest language's
                                   frames arranged among the C ones */
  enum mp_source source;
  struct mp_profile_values v;
  double rate_min, rate_max;    /* the rates its samples were taken at */
  struct mp_profile_stack *stack;  /* the record (profile.c's) */
  int named;                    /* its words were all symbolised by an
                                   earlier mp_profile_rows */
};

/* The lock of the profile and of tracked.c's table of followed blocks:
   one lock, so that a sample and a free take it once for both.  Taken
   with mp_collector_lock, inside the collector's lock; its holder takes
   no other lock.  */
extern pthread_mutex_t mp_profile_lock;

/* Take and release mp_profile_lock, the calling thread busy (mp_busy,
   thread.h) meanwhile.  The release first ends the frees that the
   thread's signal handlers deferred while it held the lock or waited
   for it (tracked.c).  Everything but fork.c's handlers takes the lock
   through these.  */
static inline void
mp_profile_acquire (void)
{
  mp_busy_enter ();
  mp_collector_lock (&mp_profile_lock);
}

static inline void
mp_profile_release (void)
{
  if (MP_UNLIKELY (mp_busy.deferred))
    mp_tracked_drain ();
  mp_collector_unlock (&mp_profile_lock);
  mp_busy_leave ();
}

/* The hash of the record of the stack RAS (N_RAS words, innermost
   first) and SOURCE, for mp_profile_alloc's S->hash.  Its slot of the
   index is asked of the cache meanwhile, without the lock: a sample
   calls it as soon as it has the stack, so that the slot's cache miss
   overlaps the sample's other work, and the record's does not wait for
   it (on bt-malloc at 1e-2, two serial misses were most of
   mp_profile_alloc's time).  */
uint64_t mp_profile_hash (const uintptr_t *ras, size_t n_ras,
                          enum mp_source source);

/* These four under mp_profile_lock.  The record of the stack RAS (N_RAS
   words, innermost first) and S's kind, S's sample added to it; NULL
   without memory.  S->hash is mp_profile_hash's for the stack.  */
struct mp_profile_stack *mp_profile_alloc (const uintptr_t *ras, size_t n_ras,
                                           const struct mp_sampled *s);
void mp_profile_promote (struct mp_profile_stack *s, double bytes);
void mp_profile_survived (struct mp_profile_stack *s, unsigned age,
                          const struct mp_space_amount *est);
void mp_profile_dead (struct mp_profile_stack *s,
                      const struct mp_space_amount *est);
/* qsort's order of rows, most allocated data first.  */
int mp_profile_by_allocated (const void *a, const void *b);
/* A copy of every record (malloc'ed, *N of them; NULL without memory),
   with the lowest and highest rate of all the samples; every address of
   them symbolised, so that the names of the functions are settled
   (namesakes.c).  */
struct mp_profile_row *mp_profile_rows (size_t *n, double *rate_min,
                                        double *rate_max);
void mp_profile_rows_free (struct mp_profile_row *rows, size_t n);
/* Every guest frame word of the profile's stacks (malloc'ed, *N of
   them), for guest.c.  */
uintptr_t *mp_profile_guest_words (size_t *n);
void mp_profile_report (FILE *out, size_t top);

/* The distinct words of the profile's stacks in [LO, HI), an object's
   span, sorted (malloc'ed, *N of them; NULL if none).  */
uintptr_t *mp_profile_words_in (uintptr_t lo, uintptr_t hi, size_t *n);
/* A word of the stacks to change, and what to: sorted by FROM, the key
   of mp_count_at_most.  */
struct mp_word_change
{
  uint64_t from, to;
};
/* Each word of the profile's stacks that is the FROM of one of the N
   CHANGES becomes its TO (profile.c says why).  */
void mp_profile_replace (const struct mp_word_change *changes, size_t n);

void mp_profile_fork (enum mp_fork_step step);

#endif
