/* sample.c -- OCaml's Gc.Memprof sampling engine: which allocated words
   are sampled, and the tracker's callbacks for them.

   Design.  Each allocated word is sampled independently with probability
   `rate`.  Rather than toss a coin per word, each thread draws the gap to
   its next sampled word (the number of failures before a success: a
   geometric draw) and counts it down in its record's `sample_left`.  An
   allocation of n words subtracts n; while the result stays non-negative
   no word of the block is sampled, and that subtract-and-branch is all
   the fast path does (mp_sample, internal.h).  When it goes negative,
   mp_sample_slow places the block's sampled words one gap after another.
   Since the gaps of a Bernoulli process are independent geometric draws,
   a block of n words gets Binomial (n, rate) samples for every n, and at
   rate 1 (gaps of 0) exactly n.

   The settings (rate, tracker) change under `lock`.  Then, and when
   tracked.c has callbacks due, mp_sample_prompt stores MP_GAP_REDRAW in
   every record's gap, so that each thread soon takes its slow path,
   delivers what is due and draws a new gap.  A thread redraws only then
   or when the rate changed, never merely because its countdown ran out:
   a redraw there, where a sample is due, would lose it (the bias a
   prompt lost to a race with the owner's countdown used to cause).
   While sampling is off gaps are OFF_GAP words at most: a store lost to
   such a race costs at most that many unsampled words.

   Sampling is suspended in a thread while one of its callbacks runs: the
   samples of the callback's own blocks are drawn as usual, so that the
   program's words stay independent of them, and then dropped.

   Signal handlers.  A handler's allocation may fall while the thread it
   interrupted is busy (thread.h's mp_busy): holding `lock` or
   mp_profile_lock, or walking its stack with libunwind.  A sample due
   then is not taken, and the thread's gap is redrawn at its next
   allocation: the handler's block is counted, but neither tracked nor
   in the profile.  Since the gaps are memoryless, the program's other
   words keep their probability; only the handlers' allocations inside
   those short sections (a few thousand instructions a sample) go
   unsampled.

   Every sample also goes to the report's profile (profile.c), at the
   rate of the moment: MEMPROF's sampling_rate, or the program's between
   mp_memprof_start and mp_memprof_stop.  A block that the tracker keeps
   metadata for, or that the profile counts, is followed from then on by
   tracked.c.  */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "own.h"
#include "callstack.h"
#include "guest.h"
#include "generations.h"
#include "finalise.h"
#include "config.h"
#include "init.h"
#include "eventlog.h"
#include "collect.h"
#include "callstack.h"
#include "fork.h"
#include "sample.h"
#include "profile.h"
#include "roots.h"

/* Gaps while sampling is off, and the longest gap drawn (for rates so
   small that a gap would not fit in sample_left).  */
#define OFF_GAP ((int64_t) 1 << 20)
#define MAX_GAP ((int64_t) 1 << 61)

MP_API const struct mp_tracker mp_null_tracker = { NULL, NULL, NULL, NULL, NULL, NULL };

/* The settings, guarded by `lock`.  `session` counts the starts and
   stops, and says which session a tracked block belongs to; it is
   written under lock, atomically, and read without the lock.  `version`
   counts every change of the settings: written under lock, after them,
   and read without the lock by `settings`.  */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int started;             /* between mp_memprof_start and _stop */
static double rate;             /* the program's while started, else
                                   MEMPROF's sampling_rate */
static size_t callstack_size;   /* at most MP_MAX_CALLSTACK */
static struct mp_tracker tracker MP_GC_ROOT;   /* keeps its data alive */
static _Atomic unsigned session;
static _Atomic unsigned version;

/* Take and release `lock`, the thread busy meanwhile (thread.h's
   mp_busy): a signal handler's sample must not wait for it.  */
static void
lock_settings (void)
{
  mp_busy_enter ();
  pthread_mutex_lock (&lock);
}

static void
unlock_settings (void)
{
  pthread_mutex_unlock (&lock);
  mp_busy_leave ();
}

/* A thread's copy of the settings, taken under lock: a sample reads
   them without the lock while `version` stays `seen - 1` (0: no copy
   yet).  A change after the check is as if it had come just after a
   locked read.  `log_keep` is log (1 - rate), which each gap needs:
   computed once per change, not per sample.  Owned by its thread.  */
struct settings
{
  unsigned seen, session;
  struct mp_tracker tracker;
  double rate, log_keep;
  size_t depth;
};
static __thread struct settings own_settings
  __attribute__ ((tls_model ("initial-exec")));

/* Tracker callbacks under way in all threads: mp_memprof_stop waits for
   those of other threads to finish (mp_callback_begin).  */
static atomic_long in_flight;

/* ---- random gaps ------------------------------------------------------ */

static inline uint64_t
rotl (uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna): fast, and good in every bit.  */
static uint64_t
next_random (uint64_t s[4])
{
  uint64_t result = rotl (s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return result;
}

/* Seed S from the record's address and a process-wide key, with
   splitmix64 so that neighbouring records get unrelated streams.  */
static void
seed_random (uint64_t s[4], const void *record)
{
  uint64_t x = (uintptr_t) record ^ mp_random_key;
  for (int i = 0; i < 4; i++)
    {
      uint64_t z = (x += UINT64_C (0x9e3779b97f4a7c15));
      z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
      z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
      s[i] = z ^ (z >> 31);
    }
}

/* The natural logarithm of X, a positive normal number, within an ulp
   or two, as libm's log.  Here rather than libm's so that the runtime
   does not link libm, which every process would then map and relocate
   at start (a short process pays for it, issue 18): X = M 2^E with M
   in [sqrt(1/2), sqrt(2)), and log M = 2 atanh S, S = (M - 1) / (M + 1),
   |S| < 0.172, whose odd series reaches double precision at S^23.  */
static double
natural_log (double x)
{
  uint64_t bits;
  memcpy (&bits, &x, sizeof bits);
  int e = (int) (bits >> 52 & 0x7ff) - 1023;
  bits = (bits & ~(UINT64_C (0x7ff) << 52)) | UINT64_C (1023) << 52;
  double m;
  memcpy (&m, &bits, sizeof m);   /* in [1, 2) */
  if (m > 1.4142135623730951)
    {
      m *= 0.5;
      e++;
    }
  /* The series 1 + z/3 + z^2/5 + ... + z^11/23 in z = S^2, by
     Estrin's scheme: pairs of terms, then pairs of pairs, so that the
     multiplies do not wait on each other one by one as Horner's eleven
     did (a third of a gap's time).  */
  double s = (m - 1) / (m + 1), z = s * s, z2 = z * z, z4 = z2 * z2;
  double p0 = 1.0 / 3 + z * (1.0 / 5), p1 = 1.0 / 7 + z * (1.0 / 9);
  double p2 = 1.0 / 11 + z * (1.0 / 13), p3 = 1.0 / 15 + z * (1.0 / 17);
  double p4 = 1.0 / 19 + z * (1.0 / 21), p5 = 1.0 / 23;
  double q0 = p0 + z2 * p1, q1 = p2 + z2 * p3, q2 = p4 + z2 * p5;
  double sum = z * (q0 + z4 * (q1 + z4 * q2));
  /* log 2 split so that E times its high part is exact.  */
  const double ln2_hi = 6.93147180369123816490e-01;
  const double ln2_lo = 1.90821492927058770002e-10;
  return e * ln2_hi + (2 * s * (1 + sum) + e * ln2_lo);
}

/* log (1 + X) for X in (-1, 0], accurate where X is tiny too: the
   rounding of 1 + X is corrected by the ratio of X to what was kept of
   it (Goldberg, "What every computer scientist should know about
   floating-point arithmetic", theorem 4).  */
static double
log_1p (double x)
{
  double y = 1 + x;
  return y == 1 ? x : natural_log (y) * x / (y - 1);
}

/* Words before the next sampled one, at rate R > 0, LOG_KEEP being
   log (1 - R).  */
static int64_t
draw_gap (struct mp_thread *t, double r, double log_keep)
{
  if (r >= 1)
    return 0;
  double u = (double) ((next_random (t->rng) >> 11) + 1) * 0x1p-53; /* (0, 1] */
  /* log u <= 0 and log_keep < 0: G is not negative, and the
     conversion's truncation is its floor, without floor's dozen
     instructions a sample.  */
  double g = natural_log (u) / log_keep;
  return g < (double) MAX_GAP ? (int64_t) g : MAX_GAP;
}

/* ---- the slow path ---------------------------------------------------- */

/* The samples of a block of WORDS words whose countdown ran out: LEFT is
   the gap as it was before the block.  Leaves the gap after it.  */
static uint64_t
place_samples (struct mp_thread *t, int64_t left, uint64_t words,
               const struct settings *c)
{
  uint64_t n = 0;
  int64_t pos = left;           /* the next sampled word, from the block */
  while ((uint64_t) pos < words)
    {
      n++;
      pos += 1 + draw_gap (t, c->rate, c->log_keep);
    }
  atomic_store_explicit (&t->sample_left, pos - (int64_t) words,
                         memory_order_relaxed);
  return n;
}

static inline __attribute__ ((always_inline)) int
sample_block (struct mp_thread *t, int64_t left, uint64_t words,
              void *block, enum mp_source source, const void *ra,
              size_t usable);

/* The settings, as this thread's copy, taken again under lock if they
   changed since.  */
static const struct settings *
settings (void)
{
  struct settings *c = &own_settings;
  if (c->seen != atomic_load_explicit (&version, memory_order_acquire) + 1)
    {
      lock_settings ();
      c->tracker = tracker;
      c->rate = rate;
      c->log_keep = rate > 0 && rate < 1 ? log_1p (-rate) : 0;
      c->depth = callstack_size;
      c->session = atomic_load (&session);
      c->seen = atomic_load (&version) + 1;
      unlock_settings ();
    }
  return c;
}

/* The settings after a change under lock: the threads' copies are
   stale.  */
static void
changed (void)
{
  atomic_fetch_add_explicit (&version, 1, memory_order_release);
}

/* The rate in effect for copy C: none once own.c ran out of memory.  */
static double
rate_of (const struct settings *c)
{
  return mp_own_exhausted () ? 0 : c->rate;
}

unsigned
mp_sample_tracker (struct mp_tracker *tr)
{
  const struct settings *c = settings ();
  *tr = c->tracker;
  return c->session;
}

unsigned
mp_sample_session (void)
{
  return atomic_load (&session);
}

double
mp_sample_rate (void)
{
  return rate_of (settings ());
}

/* Run what the collector found due: tracker callbacks, finalisers,
   finalise_last calls, alarms, a compaction.  Not inside a tracker
   callback, nor inside Boehm's callbacks (an allocation of the
   program's there), which hold Boehm's lock; the program's errno comes
   out as it went in.  */
void
mp_deliver (struct mp_thread *t)
{
  if (t->in_callback || mp_hooks_busy ())
    return;
  int saved = errno;
  mp_tracked_deliver (t);
  mp_finalise_deliver ();
  mp_compact_if_due (t);
  errno = saved;
}

/* Before a callback of the tracker of SESSION in T: 0 if that tracker
   is stopped (then no callback), else 1, with sampling suspended in T
   and the program's errno in *SAVED_ERRNO.  Counting the callback before
   looking at the session is what lets mp_memprof_stop see it.  */
int
mp_callback_begin (struct mp_thread *t, unsigned s, int *saved_errno)
{
  atomic_fetch_add (&in_flight, 1);
  if (atomic_load (&session) != s)
    {
      atomic_fetch_sub (&in_flight, 1);
      return 0;
    }
  t->in_callback++;
  *saved_errno = errno;
  return 1;
}

void
mp_callback_end (struct mp_thread *t, int saved_errno)
{
  errno = saved_errno;
  t->in_callback--;
  atomic_fetch_sub (&in_flight, 1);
}

/* T's thread exits from inside its callbacks.  */
void
mp_callback_abandon (struct mp_thread *t)
{
  atomic_fetch_sub (&in_flight, t->in_callback);
  t->in_callback = 0;
}

/* Send every thread to its slow path soon, where it redraws its gap
   (the gaps being memoryless, that changes no probability) and delivers
   what tracked.c queued.  A store lost to a race with the owner's
   countdown only delays that thread; one that lands between the
   owner's countdown and its slow path changes nothing, as the slow
   path uses the countdown's value, not the record's.  */
void
mp_sample_prompt (void)
{
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    atomic_store_explicit (&t->sample_left, MP_GAP_REDRAW,
                           memory_order_relaxed);
}

/* Owner only: send T's next allocation to the slow path, with a new gap
   (the gaps being memoryless, that changes no probability).  */
void
mp_sample_interrupt (struct mp_thread *t)
{
  atomic_store_explicit (&t->sample_left, MP_GAP_REDRAW,
                         memory_order_relaxed);
}

/* The slow path of mp_sample.  The program's errno comes out as it went
   in, whatever the maths library or a callback did to it.  */
int
mp_sample_slow (struct mp_thread *t, int64_t left, uint64_t words,
                void *block, enum mp_source source, const void *ra,
                size_t usable)
{
  if (MP_UNLIKELY (mp_busy.depth))
    {
      /* A signal handler's allocation, its thread busy: not sampled.  */
      mp_sample_interrupt (t);
      return 0;
    }
  int saved = errno;
  int tracked = sample_block (t, left, words, block, source, ra, usable);
  if (!mp_young_budget_seen (t))
    mp_young_budget_check (t);
  if (MP_UNLIKELY (t->young.minor_due) && !mp_hooks_busy ())
    {
      t->young.minor_due = 0;
      mp_collect_minor ("minor_heap_size");
    }
  errno = saved;
  return tracked;
}

/* The block S, with A's samples, from RA: capture its call stack of
   DEPTH frames, pass it to tracker TR, and have it counted in the
   report's profile and followed; return 1 if it is.  A frame of its
   own, one more for the unwinder to walk, because it holds the
   capture's buffer (some 16 kB): inlined, every slow path would take
   that much stack, where only a sample needs it.  */
static __attribute__ ((noinline)) int
take_sample (struct mp_thread *t, struct mp_sampled *s,
             struct mp_allocation *a, const struct mp_tracker *tr,
             const void *ra, size_t depth)
{
  /* Room for the runtime's own frames, cut off after capture, and for
     as many frames of a guest language as of C (guest.c).  */
  uintptr_t ras[2 * MP_MAX_CALLSTACK + MP_CALLSTACK_SLACK];
  mp_callstack cs = { ras, 0, depth, NULL, 0 };
  if (depth > 0)
    {
      mp_busy_enter ();         /* libunwind's cache is the thread's */
      cs.n_ras = mp_callstack_capture ((uintptr_t) ra, ras, depth);
      mp_busy_leave ();
      t->in_callback++;         /* the VM's code: no sampling in it */
      cs.n_ras = mp_guest_capture (ras, cs.n_ras, cs.n_ras + depth);
      t->in_callback--;
    }
  a->callstack = &cs;
  /* The profile keeps the allocating frame even when no stack is
     wanted: it names the function of the site.  It counts the block
     with tracked.c's record of it, under one lock.  */
  uintptr_t site_ra = (uintptr_t) ra;
  if (mp_config.sampling_rate > 0)
    {
      s->ras = depth > 0 ? ras : &site_ra;
      s->n_ras = depth > 0 ? cs.n_ras : 1;
      s->hash = mp_profile_hash (s->ras, s->n_ras, s->source);
    }
  void *(*fn) (const struct mp_allocation *, void *)
    = s->young ? tr->alloc_minor : tr->alloc_major;
  int saved;
  if (fn && mp_callback_begin (t, s->session, &saved))
    {
      enum mp_event e = s->young ? MP_EV_ALLOC_MINOR : MP_EV_ALLOC_MAJOR;
      int ev = mp_ev_begin (e);
      s->meta = fn (a, tr->data);
      mp_ev_end (e, ev);
      mp_callback_end (t, saved);
    }
  mp_callstack_release (&cs);
  return mp_tracked_add (s);
}

/* What a block of WORDS words in USABLE bytes with N samples at rate R
   stands for: N / (R WORDS) blocks like it, which is unbiased, and 1 at
   rate 1.  USABLE 0: the words a realloc added to a block, which are
   data but no block.  */
static struct mp_space_amount
estimate (uint64_t n, uint64_t words, size_t usable, double r)
{
  if (usable == 0)
    return (struct mp_space_amount) { 0, (double) n / r * sizeof (void *), 0 };
  double blocks = (double) n / (r * (double) words);
  double data = (double) words * sizeof (void *);
  double overhead = (double) usable > data ? (double) usable - data : 0;
  return (struct mp_space_amount) { blocks, blocks * data,
                                    blocks * overhead };
}

/* LEFT is what mp_sample's countdown left: the gap before the block
   was LEFT + WORDS.  The allocator gave USABLE bytes for it.  Inline in
   mp_sample_slow: one frame fewer for the unwinder.  */
static inline __attribute__ ((always_inline)) int
sample_block (struct mp_thread *t, int64_t left, uint64_t words, void *block,
              enum mp_source source, const void *ra, size_t usable)
{
  int young = (source == MP_SOURCE_NORMAL || source == MP_SOURCE_ATOMIC)
              && words <= MP_MAX_YOUNG_WOSIZE;
  /* A young block's, its log entry's, not the epoch now: a collection
     may have run since, while the log waited for Boehm's lock.  */
  uint64_t epoch
    = young ? mp_young_epoch_of (t, block)
            : atomic_load_explicit (&mp_gc_epoch, memory_order_acquire);
  left += (int64_t) words;
  mp_deliver (t);
  const struct settings *c = settings ();
  double r = rate_of (c);

  if (left < 0 || t->gap_rate != r)     /* asked for, or a new rate */
    {
      if ((t->rng[0] | t->rng[1]) == 0)
        seed_random (t->rng, t);
      t->gap_rate = r;
      left = r > 0 ? draw_gap (t, r, c->log_keep) : OFF_GAP;
    }
  if (r == 0)
    {
      atomic_store_explicit (&t->sample_left,
                             left >= (int64_t) words ? left - (int64_t) words
                                                     : OFF_GAP,
                             memory_order_relaxed);
      return 0;
    }
  uint64_t n = place_samples (t, left, words, c);
  if (n == 0 || t->in_callback || block == NULL)
    return 0;

  struct mp_allocation a = { n, words, source, NULL };
  int gc = source != MP_SOURCE_MALLOC && source != MP_SOURCE_CUSTOM;
  struct mp_sampled smp = {
    .block = block, .session = c->session, .epoch = epoch, .gc = gc,
    .est = estimate (n, words, usable, r), .rate = r, .n_samples = n,
    .source = source, .young = young
  };
  /* A copy: the callback may change the settings, and this thread's
     copy with them.  */
  struct mp_tracker tr = c->tracker;
  return take_sample (t, &smp, &a, &tr, ra, c->depth);
}

/* ---- start and stop --------------------------------------------------- */

/* Start the report's sampling, at MEMPROF's rate: mp_init, once.  */
void
mp_sample_setup (void)
{
  lock_settings ();
  rate = mp_config.sampling_rate;
  callstack_size = mp_config.callstack_size;
  changed ();
  unlock_settings ();
  mp_sample_prompt ();
}

MP_API int
mp_memprof_start (double sampling_rate, size_t size,
                  const struct mp_tracker *tr)
{
  if (!(sampling_rate >= 0 && sampling_rate <= 1) || tr == NULL)
    {
      errno = EINVAL;
      return -1;
    }
  mp_self ();                   /* the runtime must be started */
  lock_settings ();
  if (started)
    {
      unlock_settings ();
      errno = EBUSY;
      return -1;
    }
  started = 1;
  rate = sampling_rate;
  callstack_size = size < MP_MAX_CALLSTACK ? size : MP_MAX_CALLSTACK;
  tracker = *tr;
  atomic_fetch_add (&session, 1);
  changed ();
  unlock_settings ();
  mp_sample_prompt ();
  return 0;
}

MP_API int
mp_memprof_stop (void)
{
  lock_settings ();
  if (!started)
    {
      unlock_settings ();
      errno = EINVAL;
      return -1;
    }
  started = 0;
  rate = mp_config.sampling_rate;
  callstack_size = mp_config.callstack_size;
  tracker = mp_null_tracker;
  atomic_fetch_add (&session, 1);
  changed ();                   /* every thread's copy, not only ours */
  unlock_settings ();
  /* No callback starts now; let those under way in other threads end.  */
  long own = mp_self ()->in_callback;
  while (atomic_load (&in_flight) > own)
    sched_yield ();
  mp_sample_prompt ();
  mp_tracked_forget_all ();     /* as OCaml: without callbacks */
  return 0;
}

/* See fork.c.  Only the forking thread's callbacks are under way in the
   child, or mp_memprof_stop would wait there for the others forever.  */
void
mp_sample_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_CHILD)
    atomic_store (&in_flight, mp_self_tls ? mp_self_tls->in_callback : 0);
  mp_fork_mutex (&lock, step);
}
