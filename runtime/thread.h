/* thread.h -- per-thread records (thread.c): a thread's counters, its
   log of young GC blocks, its sampler's state, and bytesUsed.  internal.h
   includes it, after what it needs: include internal.h.  */

#ifndef MEMPROF_THREAD_H
#define MEMPROF_THREAD_H

/* The log of young GC blocks of one thread: see generations.c.  */
struct mp_young
{
  /* The first three, after the record's sample_left, are what generated
     code sees as struct mp_vm_thread (vm.c checks the layout).  */
  _Atomic (uint64_t *) entries;  /* owner allocates; the collector reads */
  _Atomic size_t count;          /* entries logged; owner writes */
  size_t limit;                  /* owner writes, and so does the
                                    collector: it lowers it to 0 once it
                                    has decided entries (generations.c's
                                    decide_log), while an owner not
                                    stopped (exited, or in GC_do_blocking)
                                    or stopped inside mp_young_gate may
                                    write it too, losing only that early
                                    drop; relaxed atomic accesses
                                    (__atomic_*): `capacity`, or less when
                                    the minor heap budget is looked at
                                    sooner, so that one test sends the
                                    appends that need more than a store
                                    to mp_young_log_slow; 0 while the
                                    thread is not known to Boehm, runs
                                    a user allocator's call, or has
                                    decided entries to drop */
  _Atomic size_t done;           /* entries the collector has decided;
                                    collector writes, owner resets to 0
                                    together with count */
  size_t capacity;               /* owner only */
  size_t dropped;                /* owner only: entries make_room removed
                                    from the front, ever; entry i is the
                                    (dropped + i)th logged */
  struct young_index *index;     /* owner only: see generations.c */
  uint64_t stuck;                /* owner only: 1 + the epoch in which the
                                    log was full, out of memory, and no
                                    collection came to empty it; 0: never */

  /* The minor heap budget (control.c's minor_heap_size), owner only:
     the words of entries logged in epoch `budget_epoch', summed through
     absolute position `summed'; the next look comes at absolute position
     `check_at' (SIZE_MAX: none), when the budget is `budget_gen'.  */
  uint64_t budget_words, budget_epoch;
  size_t summed, check_at;
  unsigned budget_gen;
  int minor_due;                 /* the budget is reached: collect */
};

/* A thread's record.  It takes the first MP_RECORD_SLOTS slots of the
   thread's counter array, which no site uses, so that the counters of
   site ID sit at a constant offset from it, with no pointer to load.  */
struct mp_thread
{
  struct mp_thread *next;        /* registry link, immutable once pushed */
  atomic_int in_use;             /* 1 while a live thread owns the record */
  int gc_registered;             /* owner only: an enum mp_gc_thread */
  const struct mp_site *user_site;  /* owner only: the user allocator
                                    whose call is in progress (entry.h) */
  const struct mp_vm_site *guest_site;  /* owner only: the guest
                                    procedure running, an mp_site of
                                    MP_KIND_VM_GUEST that the VM stores
                                    through mp_vm_running (guest.h) */

  /* bytesUsed: the owner's unflushed change, and its highest value
     since the last flush into mp_bytes_used (see mp_note_used).  */
  mp_counter used_delta, used_peak;
  mp_counter bytes_slack;

  /* Words the owner may still allocate before the next sampled word
     (sample.c).  The owner counts it down; others store MP_GAP_REDRAW
     to send the owner to the slow path for a new gap.  */
  mp_counter sample_left;
  struct mp_young young;         /* right after sample_left: see there */

  /* Owner only (sample.c): the sampler's random state, the rate
     `sample_left` was drawn at (0: none yet), and how many tracker
     callbacks are running in the thread (sampling is suspended then).  */
  uint64_t rng[4];
  double gap_rate;
  int in_callback;

  /* The frees of sampled malloc blocks that a signal handler made while
     its thread was in the runtime's section (mp_busy), for tracked.c
     to end once the thread leaves it: a stack of struct mp_tracked
     nodes (their `deferred' set), pushed by the handlers with a
     compare-and-swap, taken whole with an exchange by the thread as it
     leaves the section, or in a forked child, where the thread is gone.
     `deferred_spare': nodes for reuse, pushed back by whoever took them
     and popped by the handlers only, so that no pop meets a push that
     reuses its node.  */
  _Atomic (struct mp_tracked *) deferred;
  _Atomic (struct mp_tracked *) deferred_spare;

  /* Owner only (marks.h's mp_marks_size_in): the bottom index of
     Boehm's heap in the region of it that the owner's last GC block
     came from, and that region's address with all its low bits set
     (0: none yet).  Boehm never frees a bottom index.  */
  uintptr_t gc_region;
  const char *gc_bottom;
} __attribute__ ((aligned (128)));

/* The calling thread in the runtime's sections that a signal handler's
   allocation or free must not enter again: holding mp_profile_lock
   (profile.c, tracked.c) or sample.c's lock, or walking its stack with
   libunwind, which is not reentrant on the thread's cache.  A thread's
   own, and its handlers' (which run on the same thread: compiler
   barriers order the accesses, no fence is needed).  */
struct mp_busy
{
  /* The sections the thread is in: each adds 1 before it starts and
     takes it away after it ends (mp_busy_enter and mp_busy_leave,
     tracked.h).  While it is not 0, a sample that falls is not taken
     (sample.c) and the free of a tracked block is deferred to the
     record's `deferred' (tracked.c), so that a handler never waits for
     the thread it interrupted.  A handler leaves it as it found it.  */
  int depth;
  /* 1 once a handler deferred a free, until the thread takes the
     record's `deferred' to end them: the one test that leaving a
     section makes.  */
  int deferred;
};
extern __thread struct mp_busy mp_busy
  __attribute__ ((tls_model ("initial-exec")));

#define MP_RECORD_SLOTS (sizeof (struct mp_thread) / sizeof (struct mp_site_counts))

_Static_assert (sizeof (struct mp_thread) % sizeof (struct mp_site_counts) == 0,
                "a thread record must fill whole counter slots");

/* What Boehm knows of a thread: not asked yet, known, or registered by
   us (then we unregister it when the thread exits).  */
enum mp_gc_thread { MP_GC_UNKNOWN, MP_GC_READY, MP_GC_REGISTERED_BY_US };

/* The thread records, newest first; pushed under the site table's lock
   (sites.c), never unlinked.  */
extern _Atomic (struct mp_thread *) mp_threads;

struct mp_thread *mp_thread_slow (void);
extern __thread struct mp_thread *mp_self_tls
  __attribute__ ((tls_model ("initial-exec")));

/* The calling thread's record when the malloc family's fast paths may
   run in it (libc.c, which sets it on a slow path once it knows the
   allocator's chunk layout), &mp_no_fast_thread otherwise, never NULL.
   Reset with mp_self_tls at thread exit.  */
extern __thread struct mp_thread *mp_fast_tls
  __attribute__ ((tls_model ("initial-exec")));

/* The record of no thread that mp_fast_tls names until the fast paths
   may run: its sample_left, MP_NO_FAST, fails the sign test that
   malloc's fast path makes anyway (a sample due), so that it tests no
   pointer; free's and realloc's, which read the chunk's header first,
   test for it.  Not in mp_threads; nothing writes it.  */
extern struct mp_thread mp_no_fast_thread;
#define MP_NO_FAST (-((int64_t) 1 << 62))

/* The calling thread's record once the thread is known to Boehm
   (boehm.c's mp_gc_self_slow), NULL otherwise: the GC family's
   entries test one pointer for both.  Cleared with mp_self_tls at
   thread exit.  */
extern __thread struct mp_thread *mp_gc_tls
  __attribute__ ((tls_model ("initial-exec")));

/* The calling thread's record, made on its first use.  */
static inline struct mp_thread *
mp_self (void)
{
  struct mp_thread *t = mp_self_tls;
  return MP_LIKELY (t != NULL) ? t : mp_thread_slow ();
}

/* Add N to C, a counter of the calling thread's record: its owner is
   its only writer, so that a plain add (one instruction where a
   relaxed load and store are three) loses nothing; the readers' relaxed
   loads cannot see it torn, as an aligned 8-byte store is single-copy
   atomic on the targets the runtime builds for (x86-64, AArch64).  */
typedef int64_t __attribute__ ((may_alias)) mp_own_counter;

static inline __attribute__ ((always_inline)) void
mp_own_add (mp_counter *c, int64_t n)
{
  *(mp_own_counter *) c += n;
}

static inline __attribute__ ((always_inline)) void
mp_own_set (mp_counter *c, int64_t v)
{
  *(mp_own_counter *) c = v;
}

static inline __attribute__ ((always_inline)) int64_t
mp_own_get (const mp_counter *c)
{
  return *(const mp_own_counter *) c;
}

/* The counters of site number ID in T.  The slots before site 1's are
   the record's: a constant that the empty asm keeps GCC from adding to
   ID (an instruction on the fast paths), so that it goes into the
   counters' displacements.  */
static inline __attribute__ ((always_inline)) struct mp_site_counts *
mp_counts_of (struct mp_thread *t, unsigned id)
{
  struct mp_site_counts *c = (struct mp_site_counts *) t + (size_t) id;
  __asm__ ("" : "+r" (c));
  return c + (MP_RECORD_SLOTS - 1);
}

/* The counters of SITE in T.  */
static inline struct mp_site_counts *
mp_counts (struct mp_thread *t, const struct mp_site *site)
{
  unsigned id = __atomic_load_n (&site->id, __ATOMIC_ACQUIRE);
  if (MP_UNLIKELY (id == 0))
    id = mp_site_number (site);
  return mp_counts_of (t, id);
}

/* Count at C, counters of the calling thread's, a successful realloc
   from OLD to N bytes, IN_PLACE or not, in D's terms: growth is an
   expansion (in place, an expansion that succeeded) and counts as
   allocated bytes.  Inline: the malloc family's realloc counts it on
   its fast path (libc.c).  */
static inline __attribute__ ((always_inline)) void
mp_count_realloc (struct mp_site_counts *c, size_t in_place, size_t old,
                  size_t n)
{
  mp_own_add (&c->c[SC_NUM_REALLOCATE_OK], 1);
  mp_own_add (&c->c[SC_NUM_REALLOCATE_IN_PLACE], in_place);
  /* IN_PLACE, 0 or 1, picks the counter of the bytes kept: no select
     to compute; nor for the bytes, OLD or N, in the branches.  */
  _Static_assert (SC_BYTES_NOT_MOVED == SC_BYTES_MOVED + 1,
                  "bytesNotMoved follows bytesMoved");
  mp_counter *kept = &c->c[SC_BYTES_MOVED + in_place];
  if (n > old)
    {
      mp_own_add (kept, (int64_t) old);
      mp_own_add (&c->c[SC_NUM_EXPAND], 1);
      mp_own_add (&c->c[SC_NUM_EXPAND_OK], in_place);
      mp_own_add (&c->c[SC_BYTES_EXPANDED], (int64_t) (n - old));
      mp_own_add (&c->c[SC_BYTES_ALLOCATED], (int64_t) (n - old));
    }
  else
    {
      mp_own_add (kept, (int64_t) n);
      mp_own_add (&c->c[SC_BYTES_CONTRACTED], (int64_t) (old - n));
    }
}

/* Set T's young log's limit (struct mp_young) after a change to what
   closes it: 0 while T is not known to Boehm or runs a user allocator's
   call, so that the GC family's fast paths' test of the limit also
   sends such a thread to its slow path (to register first, or charge
   the user allocator); else `capacity', or less when the minor heap
   budget is looked at sooner (generations.c).  Inline: the malloc
   family's fast path runs it when it charges a user allocator.  */
static inline __attribute__ ((always_inline)) void
mp_young_gate (struct mp_thread *t)
{
  struct mp_young *y = &t->young;
  size_t check = y->check_at - y->dropped;   /* check_at >= dropped */
  size_t limit = t->gc_registered == MP_GC_UNKNOWN || t->user_site != NULL
                 ? 0 : check < y->capacity ? check : y->capacity;
  __atomic_store_n (&y->limit, limit, __ATOMIC_RELAXED);
}

/* Make SITE (NULL: none) the user allocator whose call is under way in
   T.  The young log is closed while there is one, so that the fast
   paths, which charge no user allocator, need not test for one.  */
static inline void
mp_set_user_site (struct mp_thread *t, const struct mp_site *site)
{
  t->user_site = site;
  if (site != NULL)
    __atomic_store_n (&t->young.limit, 0, __ATOMIC_RELAXED);
  else
    mp_young_gate (t);
}

/* The site to charge for an allocation at SITE: a user allocator's, if
   one is running in T and no allocation inside it took it yet.  */
static inline const struct mp_site *
mp_charge_site (struct mp_thread *t, const struct mp_site *site)
{
  const struct mp_site *user = t->user_site;
  if (MP_UNLIKELY (user != NULL))
    {
      mp_set_user_site (t, NULL);
      return user;
    }
  return site;
}

/* bytesUsed and bytesHighTide.  */

/* Global bytesUsed as of the last flushes, and the highest value seen.  */
extern mp_counter mp_bytes_used_flushed;
extern _Atomic int64_t mp_bytes_high_tide;

void mp_flush_used (struct mp_thread *t);

/* Call FN (ARG) until no flush of bytesUsed overlapped it: a flush
   moves a thread's delta into mp_bytes_used_flushed and then zeroes
   it, and a sum of the two read in between would count the delta
   twice, or not at all.  Flushes are rare (a thread's exit, a delta
   past MP_USED_FLUSH); after some hundreds of tries, as when called in
   a signal handler that interrupted a flush, the last sum stands.  */
void mp_sum_used_apart (void (*fn) (void *arg), void *arg);

#define MP_USED_FLUSH ((int64_t) 1 << 20)

/* Account N more bytes in use by T, SLACK of them the allocator's.  N
   is negative for a realloc that shrinks, which flushes far below the
   last flush as mp_note_free does: a delta left to fall without bound
   would have another thread's flush take a peak that T's frees had
   already undone (bytesHighTide too high).  */
static inline __attribute__ ((always_inline)) void
mp_note_alloc (struct mp_thread *t, int64_t n, int64_t slack)
{
  int64_t d = mp_own_get (&t->used_delta) + n;
  mp_own_set (&t->used_delta, d);
  if (d > mp_own_get (&t->used_peak))
    {
      mp_own_set (&t->used_peak, d);
      if (MP_UNLIKELY (d > MP_USED_FLUSH))
        mp_flush_used (t);
    }
  else if (MP_UNLIKELY (d < -MP_USED_FLUSH))
    mp_flush_used (t);
  mp_own_add (&t->bytes_slack, slack);
}

/* Account N fewer bytes in use by T, SLACK fewer of the allocator's.  */
static inline __attribute__ ((always_inline)) void
mp_note_free (struct mp_thread *t, int64_t n, int64_t slack)
{
  int64_t d = mp_own_get (&t->used_delta) - n;
  mp_own_set (&t->used_delta, d);
  mp_own_add (&t->bytes_slack, -slack);
  if (MP_UNLIKELY (d < -MP_USED_FLUSH))
    mp_flush_used (t);
}

#endif
