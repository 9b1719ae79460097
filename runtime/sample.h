/* sample.h -- OCaml's Gc.Memprof sampling engine (sample.c): the
   countdown every allocation takes, its slow path, the tracker's
   callbacks, and the deliveries of what the collector found due.
   internal.h includes it.  */

#ifndef MEMPROF_SAMPLE_H
#define MEMPROF_SAMPLE_H

#include "fork.h"
#include "internal.h"

int mp_sample_slow (struct mp_thread *t, int64_t left, uint64_t words,
                    void *block, enum mp_source source, const void *ra,
                    size_t usable);
unsigned mp_sample_session (void);
/* The sampling rate in effect: MEMPROF's, or the program's while it
   samples (mp_memprof_start).  */
double mp_sample_rate (void);
unsigned mp_sample_tracker (struct mp_tracker *tr);
void mp_sample_prompt (void);
void mp_sample_interrupt (struct mp_thread *t);
void mp_deliver (struct mp_thread *t);
int mp_callback_begin (struct mp_thread *t, unsigned session, int *saved_errno);
void mp_callback_end (struct mp_thread *t, int saved_errno);
void mp_callback_abandon (struct mp_thread *t);

/* A gap that asks for a new one (sample.c): so negative that the
   countdown stays negative, which a gap that runs out by itself never is
   at the slow path.  */
#define MP_GAP_REDRAW (INT64_MIN / 4)

/* Count WORDS more words allocated by T in BLOCK, of SOURCE, at RA, down
   to the next sampled one; return 1 if the tracker now tracks BLOCK
   (malloc family only).  */
static inline __attribute__ ((always_inline)) int
mp_sample (struct mp_thread *t, uint64_t words, void *block,
           enum mp_source source, const void *ra, size_t usable)
{
  int64_t left = mp_get_counter (&t->sample_left) - (int64_t) words;
  atomic_store_explicit (&t->sample_left, left, memory_order_relaxed);
  if (MP_LIKELY (left >= 0))
    return 0;
  /* LEFT, not a reload: a prompt's 0 stored since would lose the
     block's samples.  */
  return mp_sample_slow (t, left, words, block, source, ra, usable);
}

/* Start the report's sampling, at MEMPROF's rate: mp_init, once.  */
void mp_sample_setup (void);

void mp_sample_fork (enum mp_fork_step step);

#endif
