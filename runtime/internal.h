/* internal.h -- what the runtime's files share.

   Design.  The hot paths (every rewritten malloc, free and GC_malloc) must
   cost a few nanoseconds, and every counter must be exact with several
   threads.  So nothing on a hot path takes a lock or a locked instruction:

   - each thread owns a `struct mp_thread` (thread.c), found through an
     initial-exec TLS pointer; it holds the thread's counters and its
     per-site counter chunks.  Only the owner writes them, with relaxed
     atomic stores; readers add them up over the registry of all thread
     records ever made.  Records are never freed: a thread that exits
     leaves its counts behind and its record is reused by a later thread,
     so sums stay exact and memory stays bounded by the peak thread count;
   - sites are numbered the first time they run (sites.c), which makes
     the per-thread per-site counters a two-level array lookup;
   - blocks of the malloc family carry a tag in their trailing bytes
     (libc.c), so free can tell ours from foreign pointers without a
     table;
   - young GC blocks are logged per thread (generations.c); at the end of
     each collection's mark phase, with the world stopped, the log is
     checked against Boehm's mark bits to count promoted words exactly.  */

#ifndef MEMPROF_INTERNAL_H
#define MEMPROF_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include "memprof.h"
#include "site.h"

#define MP_API __attribute__ ((visibility ("default")))
#define MP_LIKELY(x) __builtin_expect (!!(x), 1)
#define MP_UNLIKELY(x) __builtin_expect (!!(x), 0)

/* A counter written by one thread and read by any: relaxed accesses make
   the race well-defined without a locked instruction.  */
typedef _Atomic int64_t mp_counter;

static inline void
mp_add (mp_counter *c, int64_t n)
{
  atomic_store_explicit (c, atomic_load_explicit (c, memory_order_relaxed) + n,
                         memory_order_relaxed);
}

static inline int64_t
mp_get_counter (const mp_counter *c)
{
  return atomic_load_explicit ((mp_counter *) c, memory_order_relaxed);
}

/* LeakSanitizer's interface, when the program runs under it (these are
   null otherwise).  It scans neither mmap'd memory nor Boehm's heap, and
   cannot know that a block is kept on purpose with no pointer to it.  */
extern void __lsan_register_root_region (const void *p, size_t size)
  __attribute__ ((weak));
extern void __lsan_unregister_root_region (const void *p, size_t size)
  __attribute__ ((weak));
extern void __lsan_ignore_object (const void *p) __attribute__ ((weak));

/* ---- sites.c ---------------------------------------------------------- */

/* The per-call counters of one site in one thread.  The names index `c`
   so that sums and reports can loop over them; the ones every allocation
   and free touch come first, in one cache line.  */
enum mp_site_counter
{
  SC_NUM_ALLOCATE, SC_BYTES_ALLOCATED, SC_MINOR_WORDS, SC_MAJOR_WORDS,
  SC_NUM_DEALLOCATE, SC_BYTES_CONTRACTED, SC_NUM_ALLOCATE_FAILED,
  SC_NUM_FOREIGN_DEALLOCATE,
  SC_NUM_EXPAND, SC_NUM_EXPAND_OK, SC_NUM_REALLOCATE, SC_NUM_REALLOCATE_OK,
  SC_NUM_REALLOCATE_IN_PLACE, SC_BYTES_EXPANDED, SC_BYTES_MOVED,
  SC_BYTES_NOT_MOVED,
  SC_COUNT
};

struct mp_site_counts
{
  mp_counter c[SC_COUNT];
};

/* Sites are numbered from 1.  A thread's counters are one array indexed
   by site number, reserved for MP_MAX_SITES slots (the thread's record
   included; fewer if the address space runs short) and committed
   MP_COMMIT_SITES at a time as sites get numbers (sites.c).  */
#define MP_MAX_SITES (1u << 20)
#define MP_COMMIT_SITES (1u << 12)

/* The site the runtime charges what no descriptor describes: calls from
   descriptors of another ABI, and sites past the slots the records
   reserve (MP_MAX_SITES, fewer if the address space runs short).  */
extern struct mp_site mp_unknown_site;

unsigned mp_site_number (const struct mp_site *site);
struct mp_thread;
struct mp_thread *mp_sites_new_record (void);
void mp_count_realloc (struct mp_site_counts *c, int in_place, size_t old,
                       size_t n);

/* ---- thread.c --------------------------------------------------------- */

/* The log of young GC blocks of one thread: see generations.c.  */
struct mp_young
{
  /* The first three, after the record's sample_left, are what generated
     code sees as struct mp_vm_thread (vm.c checks the layout).  */
  _Atomic (uint64_t *) entries;  /* owner allocates; the collector reads */
  _Atomic size_t count;          /* entries logged; owner writes */
  size_t limit;                  /* owner only: `capacity`, or 0 while
                                    `index` exists, so that one test sends
                                    the appends that need more than a store
                                    to mp_young_log_slow */
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
} __attribute__ ((aligned (128)));

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

/* The calling thread's record, made on its first use.  */
static inline struct mp_thread *
mp_self (void)
{
  struct mp_thread *t = mp_self_tls;
  return MP_LIKELY (t != NULL) ? t : mp_thread_slow ();
}

/* The counters of SITE in T.  */
static inline struct mp_site_counts *
mp_counts (struct mp_thread *t, const struct mp_site *site)
{
  unsigned id = __atomic_load_n (&site->id, __ATOMIC_ACQUIRE);
  if (MP_UNLIKELY (id == 0))
    id = mp_site_number (site);
  return (struct mp_site_counts *) t + (MP_RECORD_SLOTS - 1 + id);
}

/* The site to charge for an allocation at SITE: a user allocator's, if
   one is running in T and no allocation inside it took it yet.  */
static inline const struct mp_site *
mp_charge_site (struct mp_thread *t, const struct mp_site *site)
{
  const struct mp_site *user = t->user_site;
  if (MP_UNLIKELY (user != NULL))
    {
      t->user_site = NULL;
      return user;
    }
  return site;
}

/* ---- bytesUsed and bytesHighTide (thread.c) --------------------------- */

/* Global bytesUsed as of the last flushes, and the highest value seen.  */
extern mp_counter mp_bytes_used_flushed;
extern _Atomic int64_t mp_bytes_high_tide;

void mp_flush_used (struct mp_thread *t);

#define MP_USED_FLUSH ((int64_t) 1 << 20)

/* Account N more bytes in use by T, SLACK of them the allocator's.  */
static inline __attribute__ ((always_inline)) void
mp_note_alloc (struct mp_thread *t, int64_t n, int64_t slack)
{
  int64_t d = mp_get_counter (&t->used_delta) + n;
  atomic_store_explicit (&t->used_delta, d, memory_order_relaxed);
  if (d > mp_get_counter (&t->used_peak))
    {
      atomic_store_explicit (&t->used_peak, d, memory_order_relaxed);
      if (MP_UNLIKELY (d > MP_USED_FLUSH))
        mp_flush_used (t);
    }
  mp_add (&t->bytes_slack, slack);
}

/* Account N fewer bytes in use by T, SLACK fewer of the allocator's.  */
static inline __attribute__ ((always_inline)) void
mp_note_free (struct mp_thread *t, int64_t n, int64_t slack)
{
  int64_t d = mp_get_counter (&t->used_delta) - n;
  atomic_store_explicit (&t->used_delta, d, memory_order_relaxed);
  mp_add (&t->bytes_slack, -slack);
  if (MP_UNLIKELY (d < -MP_USED_FLUSH))
    mp_flush_used (t);
}

/* tracked.c */
struct mp_profile_stack;

/* A sampled block, as sample.c hands it to tracked.c.  */
struct mp_sampled
{
  void *block;
  void *meta;                   /* the tracker's metadata, or NULL */
  unsigned session;             /* of the tracker that returned it */
  struct mp_profile_stack *profile;  /* profile.c's record, or NULL */
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
void mp_tracked_after_reclaim (void);
void mp_tracked_deliver (struct mp_thread *t);
void mp_tracked_forget_all (void);


/* A size of N bytes in words, rounded up (SPEC's block size).  */
static inline uint64_t
mp_words (size_t n)
{
  return (n + sizeof (void *) - 1) / sizeof (void *);
}

/* The return address of the runtime's entry point, that is, where the
   program called it: a call stack starts there (callstack.c).  Only in
   the MP_API functions that the program calls.  */
#define MP_RA __builtin_return_address (0)


/* A field of a public record, for the writers that list them all.  */
enum mp_field_type { MP_FIELD_DOUBLE, MP_FIELD_LONG, MP_FIELD_INT64 };
struct mp_field
{
  const char *name;             /* NULL ends a table */
  size_t offset;
  unsigned char type;           /* enum mp_field_type */
  unsigned char flag;           /* what the table says it means */
};
extern const struct mp_field mp_stat_fields[];   /* stat.c */
double mp_field_value (const struct mp_field *f, const void *record);

/* timeline.c */
#define MP_TIMELINE_POINTS 1024
struct mp_timeline_point
{
  double t;                     /* seconds since the runtime started */
  double heap_words, live_words;
  int64_t minor, major;         /* collections so far */
};
void mp_timeline_start (void);
double mp_uptime (void);        /* seconds since the runtime started */
void mp_timeline_note (void);
size_t mp_timeline (struct mp_timeline_point out[MP_TIMELINE_POINTS]);

/* collect.c */
extern mp_counter mp_compactions, mp_forced_majors;
void mp_collect_minor (void);
void mp_compact_soon (void);
void mp_compact_if_due (struct mp_thread *t);

/* fields.c: MEMPROF's name KEY of a control field, or -1.  */
int mp_control_find (const char *key, size_t len);

/* messages.c: a warning, one line on stderr after `memprof: '; and a GC
   message, if FLAG is among the verbose flags.  */
void mp_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
void mp_gc_message (long flag, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* ---- own.c ------------------------------------------------------------ */

void *mp_own_alloc (size_t n);
void mp_own_free (void *p, size_t n);
int mp_own_exhausted (void);
void mp_own_report (FILE *out);
void mp_sites_memory (size_t *records, size_t *bytes, unsigned *room);

/* fatal.c */
void mp_fatal_setup (void);

#include "alloc.h"

#endif
