/* generations.c -- OCaml's generational accounting on Boehm's heap.

   A GC block is young from its allocation until the next collection; if
   it survives that collection it is promoted.  Boehm does not move
   blocks, so survival is its mark bit at the end of marking.  Each thread
   logs its young blocks (address, words, epoch) in its own array; the
   collector reads every log at GC_EVENT_MARK_END, when Boehm has just
   finished marking, still holds its lock and keeps the world stopped, so
   no thread is appending.  Words of marked young blocks are promoted.

   A thread may be stopped anywhere, including between getting a block
   from GC_malloc and logging it.  Entries carry the epoch (collections
   completed, mod 16) read when the block is logged, so an entry that
   lands after its collection has been decided is still recognised: it
   survived that collection (the allocating thread held it), and the next
   decision promotes it without looking at its mark bit.  One case stays
   open: a collection by another thread that stops this one after Boehm
   handed out the block and before the epoch is read; the block then
   counts as allocated after that collection.  (Its mark bit cannot say:
   Boehm marks the blocks of its thread-local free lists too.)

   A young block freed with GC_free must not count as promoted: its
   address may be handed out again before the next collection (two
   entries would share one mark bit), and while it waits on a thread's
   free list Boehm marks it.  The freeing thread finds its own entry
   through its latest entries, or else through its log (struct
   young_index).  A young block freed by another thread than its own is
   not found: its address is noted (`unfound'), and the next decision
   keeps one entry for it (the latest of its thread), which is exact
   unless the freed block sat on a free list at the collection.

   Entries: bits 0-3 epoch mod 16 (Boehm objects are 16-byte aligned),
   bits 4-47 the address, bits 48-63 the size in words (at most
   MP_MAX_YOUNG_WOSIZE).  An entry with address 0 is a tombstone for a
   block freed while young; it keeps the block's words for the minor
   heap budget.

   The minor heap budget (control record's minor_heap_size) is counted
   from the log too, so that it costs nothing while it is off: the log's
   `limit' sends an append to the slow path early enough to see the
   young words of the thread reach the budget, exactly, and then run a
   minor collection.  */

#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include "internal.h"
#include "timeline.h"
#include "generations.h"
#include "finalise.h"
#include "marks.h"
#include "eventlog.h"
#include "finalise.h"
#include "collect.h"
#include "fork.h"
#include "control.h"
#include "sample.h"
#include "roots.h"

#include "gcweak.h"

#define FORGET_WINDOW 512

/* Whether entry V is a block's, not a tombstone.  */
static inline int
live_entry (uint64_t v)
{
  return (v & MP_ADDR_MASK) != 0;
}

/* Collections completed (see internal.h).  The collector is the only
   writer, under the GC lock with the world stopped.  */
_Atomic uint64_t mp_gc_epoch, mp_gc_epoch_bits;
mp_counter mp_promoted_words;
mp_counter mp_minor_collections, mp_major_collections;
mp_counter mp_top_heap_bytes;

/* Young blocks that found their thread's log full and out of memory,
   and their words: any thread, atomically (see mp_young_log_slow).  */
mp_counter mp_young_unlogged, mp_young_unlogged_words;

/* Set when Boehm starts a full collection (its start callback), so that
   the MARK_END that follows counts as a major collection.  Guarded by
   the GC lock.  */
static int full_pending;

/* Whether the collection that ended marking last was a full one, for
   its RECLAIM_END.  Guarded by the GC lock.  */
static int last_was_full;

/* The addresses freed since the last decision whose entries the freeing
   thread did not find among its own (another thread's young block, or
   not a young one): only there may two undecided entries share an
   address, and the next decision keeps one entry for each of them.
   Past UNFOUND_MAX of them, `overflow' says so and the decision keeps
   one entry for every address.  Guarded by the GC lock: a freeing
   thread appends through GC_call_with_alloc_lock, the collector reads
   and empties.  */
#define UNFOUND_MAX 64
static struct
{
  size_t count;
  int overflow;
  uintptr_t addr[UNFOUND_MAX];
} unfound;

/* Heap sections: Boehm's initial one, plus one per growth.  Written
   under the GC lock (resize callbacks run holding it).  */
mp_counter mp_heap_chunks;

/* Set once Boehm is started and set up: readers may then ask it about
   its heap.  */
static atomic_int started;

int
mp_gc_started (void)
{
  return atomic_load_explicit (&started, memory_order_acquire);
}

/* Deduplicating addresses: an open-addressing table from address to the
   one entry that counts for it.  It is built and read by the collector
   alone, with the world stopped, so it lives in mmap'd memory: another
   thread may be stopped inside malloc, holding its locks.  */
struct dedup_slot
{
  uintptr_t addr;               /* 0: empty */
  const struct mp_young *log;
  size_t index;
};

struct dedup
{
  struct dedup_slot *slots;
  size_t mask;                  /* slots - 1, a power of two minus 1 */
};

static struct dedup_slot *
dedup_find (const struct dedup *d, uintptr_t addr)
{
  size_t h = (size_t) ((addr >> 4) * UINT64_C (0x9e3779b97f4a7c15));
  for (size_t i = h & d->mask;; i = (i + 1) & d->mask)
    if (d->slots[i].addr == addr || d->slots[i].addr == 0)
      return &d->slots[i];
}

static void
dedup_note (struct dedup *d, const struct mp_young *y, size_t i, uintptr_t addr)
{
  struct dedup_slot *s = dedup_find (d, addr);
  /* Within a log, the later entry is the block now at that address;
     between logs there is no order, and the first one met is kept.  */
  if (s->addr == 0 || s->log == y)
    *s = (struct dedup_slot) { addr, y, i };
}

static size_t undecided (struct mp_young *y, size_t *first, uint64_t **entries);

/* Build D over every undecided entry; -1 if there is no memory for it
   (then the decision goes without).  */
static int
dedup_build (struct dedup *d)
{
  size_t total = 0, first;
  uint64_t *e;
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    total += undecided (&t->young, &first, &e) - first;
  size_t size = 16;
  while (size < 2 * total)
    size *= 2;
  d->mask = size - 1;
  d->slots = mmap (NULL, size * sizeof *d->slots, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (d->slots == MAP_FAILED)
    return -1;
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    {
      size_t n = undecided (&t->young, &first, &e);
      for (size_t i = first; i < n; i++)
        {
          uint64_t v = __atomic_load_n (&e[i], __ATOMIC_RELAXED);
          if (live_entry (v))
            dedup_note (d, &t->young, i, v & MP_ADDR_MASK);
        }
    }
  return 0;
}

static int
dedup_kept (const struct dedup *d, const struct mp_young *y, size_t i,
            uint64_t v)
{
  const struct dedup_slot *s = dedup_find (d, v & MP_ADDR_MASK);
  return s->log == y && s->index == i;
}

static void
dedup_free (struct dedup *d)
{
  munmap (d->slots, (d->mask + 1) * sizeof *d->slots);
}

/* Whether Boehm can be asked about live entry V's block.  A block of
   MP_MAX_YOUNG_WOSIZE words may fill a heap block of its own (Boehm adds
   a byte to requests), which a GC_free by another thread than its own
   (so with its entry left live) gives back at once, header and all:
   asking Boehm about its mark would crash.  Such a block is gone.  */
static inline int
present (uint64_t v)
{
  void *p = (void *) (uintptr_t) (v & MP_ADDR_MASK);
  return MP_LIKELY ((v >> MP_WORDS_SHIFT) < MP_MAX_YOUNG_WOSIZE)
         || GC_base (p) == p;
}

static inline int
marked (uint64_t v)
{
  return mp_marked ((void *) (uintptr_t) (v & MP_ADDR_MASK));
}

/* Whether live entry V, of a collection ending EPOCH, survived it.  */
static inline int
survived (uint64_t v, uint64_t epoch)
{
  return (v & MP_EPOCH_MASK) != (epoch & MP_EPOCH_MASK)
         || (present (v) && marked (v));
}

/* The undecided entries of Y: [*FIRST, return value).  */
static size_t
undecided (struct mp_young *y, size_t *first, uint64_t **entries)
{
  size_t n = atomic_load_explicit (&y->count, memory_order_acquire);
  *first = atomic_load_explicit (&y->done, memory_order_relaxed);
  *entries = atomic_load_explicit (&y->entries, memory_order_acquire);
  return *first < n ? n : *first;
}

/* A decision's view of `unfound': for each address, the entry that
   counts so far (the first log's latest, as dedup_note keeps) and the
   words it added; and a filter of their heap blocks, so that an entry
   elsewhere costs nothing more.  */
struct unfound_pass
{
  size_t count;
  uintptr_t addr[UNFOUND_MAX];
  const struct mp_young *log[UNFOUND_MAX];        /* NULL: none yet */
  uint64_t added[UNFOUND_MAX];
  uint64_t filter[16];          /* bit unfound_bit (block) */
};

static inline unsigned
unfound_bit (uintptr_t block)
{
  return (unsigned) ((block * UINT64_C (0x9e3779b97f4a7c15)) >> 56);
}

static inline int
unfound_filtered (const struct unfound_pass *u, uintptr_t block)
{
  unsigned b = unfound_bit (block);
  return (u->filter[b / 64] >> (b % 64)) & 1;
}

/* Make U the view of `unfound' as it is now.  */
static struct unfound_pass *
unfound_pass_start (struct unfound_pass *u)
{
  memset (u, 0, sizeof *u);
  u->count = unfound.count;
  for (size_t j = 0; j < u->count; j++)
    {
      u->addr[j] = unfound.addr[j];
      unsigned b = unfound_bit (u->addr[j] >> MP_MARKS_LOG_HBLK);
      u->filter[b / 64] |= UINT64_C (1) << (b % 64);
    }
  return u;
}

/* PROMOTED, the words of Y's survivors before its live entry V, with
   V's if it survived the collection ending EPOCH and counts: at one of
   U's addresses, the latest entry of the first log that has one.  */
static uint64_t
unfound_add (struct unfound_pass *u, const struct mp_young *y, uint64_t v,
             uint64_t epoch, uint64_t promoted)
{
  uint64_t words = survived (v, epoch) ? v >> MP_WORDS_SHIFT : 0;
  for (size_t j = 0; j < u->count; j++)
    if (u->addr[j] == (v & MP_ADDR_MASK))
      {
        if (u->log[j] != NULL && u->log[j] != y)
          return promoted;      /* another log's entry counts */
        if (u->log[j] == y)
          promoted -= u->added[j];      /* this later one instead */
        u->log[j] = y;
        u->added[j] = words;
        break;
      }
  return promoted + words;
}

/* The bits of an entry that say it is of a small object logged in the
   epoch it holds, when they equal that epoch's bits: its words, below
   MP_MAX_YOUNG_WOSIZE, leave the top ones 0.  */
_Static_assert ((MP_MAX_YOUNG_WOSIZE & (MP_MAX_YOUNG_WOSIZE - 1)) == 0,
                "MP_MAX_YOUNG_WOSIZE is a power of 2");
#define SMALL_IN_EPOCH \
  (MP_EPOCH_MASK | ~(((uint64_t) MP_MAX_YOUNG_WOSIZE << MP_WORDS_SHIFT) - 1))

/* The heap blocks whose mark bytes survivors remembers, a power of 2.  */
#define MARKS_CACHED 64

/* The bits of an entry that say it is of a small object logged in the
   epoch it holds, in a given heap block: SMALL_IN_EPOCH's and those of
   the block.  */
#define BLOCK_SMALL_IN_EPOCH \
  (SMALL_IN_EPOCH | (MP_ADDR_MASK & ~((UINT64_C (1) << MP_MARKS_LOG_HBLK) - 1)))

/* The words of Y's entries [I, N) in E that survived the collection
   ending EPOCH; U, if not NULL, says which count at its addresses.  One
   pass, in which the mark bytes of a heap block are found once for the
   entries in it, and remembered by the block's low bits for the next
   ones (the blocks of a size come from one heap block after another,
   and a program allocates from a few sizes at once): an entry in the
   same heap block as the one before costs a test and a read (a binary
   tree's nodes, a VM's frames), one in another remembered block a
   lookup of a few instructions more (w3m, which allocates a string and
   its header in turn, changes block at every other entry).  An entry
   in a heap block of U's takes the slow way.  */
static uint64_t __attribute__ ((noinline))
survivors (const struct mp_young *y, const uint64_t *e, size_t i, size_t n,
           uint64_t epoch, struct unfound_pass *u)
{
  uint64_t promoted = 0, now = epoch & MP_EPOCH_MASK;
  /* By the heap block's low bits: the BLOCK_SMALL_IN_EPOCH bits of the
     entries whose mark bytes are `marks', and those.  Never all 1 (not
     all of an entry's bits are in those), never a tombstone's (0 in
     the block's bits), so that neither matches before the slot is
     filled.  */
  struct { uint64_t key; const char *marks; } cache[MARKS_CACHED];
  for (size_t j = 0; j < MARKS_CACHED; j++)
    cache[j].key = UINT64_MAX;
  /* The key and mark bytes of the entry before, if it had them.  */
  uint64_t same = UINT64_MAX;
  const char *marks = NULL;
  for (const uint64_t *p = e + i, *end = e + n; p < end; p++)
    {
      uint64_t v = __atomic_load_n (p, __ATOMIC_RELAXED);
      if (MP_UNLIKELY ((v & BLOCK_SMALL_IN_EPOCH) != same))
        {
          __typeof__ (cache[0]) *c
            = &cache[(v >> MP_MARKS_LOG_HBLK) & (MARKS_CACHED - 1)];
          if (c->key != (v & BLOCK_SMALL_IN_EPOCH))
            {
              uintptr_t a = v & MP_ADDR_MASK;
              if (a == 0)
                continue;       /* a tombstone */
              if (u != NULL && unfound_filtered (u, a >> MP_MARKS_LOG_HBLK))
                {
                  promoted = unfound_add (u, y, v, epoch, promoted);
                  continue;
                }
              const char *m = (v & SMALL_IN_EPOCH) == now
                              ? mp_marks_of ((void *) a) : NULL;
              if (m == NULL)
                {
                  promoted += survived (v, epoch) ? v >> MP_WORDS_SHIFT : 0;
                  continue;
                }
              c->key = v & BLOCK_SMALL_IN_EPOCH;
              c->marks = m;
            }
          same = c->key;
          marks = c->marks;
        }
      promoted += marks[mp_marks_granule (v)] ? v >> MP_WORDS_SHIFT : 0;
    }
  return promoted;
}

/* The same, counting only the entries that KEEP says count.  */
static uint64_t
kept_survivors (const struct mp_young *y, const uint64_t *e, size_t i,
                size_t n, uint64_t epoch, const struct dedup *keep)
{
  uint64_t promoted = 0;
  for (; i < n; i++)
    {
      uint64_t v = __atomic_load_n (&e[i], __ATOMIC_RELAXED);
      if (live_entry (v) && dedup_kept (keep, y, i, v) && survived (v, epoch))
        promoted += v >> MP_WORDS_SHIFT;
    }
  return promoted;
}

/* Decide the undecided entries of Y; KEEP, if not NULL, says which of
   them count (deduplicate), else U does for its addresses.  */
static uint64_t
decide_log (struct mp_young *y, uint64_t epoch, const struct dedup *keep,
            struct unfound_pass *u)
{
  size_t i;
  uint64_t *e;
  size_t n = undecided (y, &i, &e);
  if (i >= n)
    return 0;
  uint64_t promoted = keep ? kept_survivors (y, e, i, n, epoch, keep)
                           : survivors (y, e, i, n, epoch, u);
  atomic_store_explicit (&y->done, n, memory_order_relaxed);
  /* The owner's next append drops the decided entries (make_room), now
     that there are few undecided ones to move; left to the log's
     filling up, it moved half a log.  The owner stopped inside the fast
     path had room already; stopped inside mp_young_gate, it sets the
     limit it computed, and the entries wait for the log to fill.  */
  __atomic_store_n (&y->limit, 0, __ATOMIC_RELAXED);
  return promoted;
}

static void
end_of_marking (void)
{
  uint64_t epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_relaxed);
  uint64_t promoted = 0;
  struct dedup keep, *k = NULL;
  struct unfound_pass pass, *u = NULL;
  if (unfound.overflow && dedup_build (&keep) == 0)
    k = &keep;
  else if (unfound.count > 0)
    u = unfound_pass_start (&pass);
  unfound.count = 0;
  unfound.overflow = 0;
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    promoted += decide_log (&t->young, epoch, k, u);
  if (k)
    dedup_free (k);
  mp_add (&mp_promoted_words, (int64_t) promoted);
  mp_add (&mp_minor_collections, 1);
  mp_gc_message (MP_VERBOSE_MINOR, "minor collection %ld: %lu words promoted",
                 (long) mp_get_counter (&mp_minor_collections),
                 (unsigned long) promoted);
  last_was_full = full_pending;
  if (full_pending)
    mp_add (&mp_major_collections, 1);
  full_pending = 0;
  int64_t heap = (int64_t) GC_get_heap_size ();
  if (heap > mp_get_counter (&mp_top_heap_bytes))
    atomic_store_explicit (&mp_top_heap_bytes, heap, memory_order_relaxed);
  atomic_store_explicit (&mp_gc_epoch_bits, (epoch + 1) & MP_EPOCH_MASK,
                         memory_order_release);
  atomic_store_explicit (&mp_gc_epoch, epoch + 1, memory_order_release);
}

/* The heap's mapped size when last looked at, for the verbose messages
   of its growth and shrinking: a growth of the heap is told at once (by
   on_heap_resize), Boehm's mapping free blocks again and unmapping them
   at the next look (each collection, each compaction).  The collector
   and mp_compact write it.  */
static _Atomic size_t heap_seen;

void
mp_heap_note_size (void)
{
  size_t now = GC_get_heap_size ();
  size_t before = atomic_exchange (&heap_seen, now);
  if (now > before)     /* Boehm mapped free blocks again */
    mp_gc_message (MP_VERBOSE_HEAP, "growing heap to %zu KiB", now >> 10);
  else if (now < before)
    mp_gc_message (MP_VERBOSE_HEAP, "shrinking heap to %zu KiB", now >> 10);
}

/* After a full collection: the heap's overhead, free words in percent of
   used words, against max_overhead (OCaml's compaction trigger).  */
static void
check_overhead (void)
{
  size_t heap = GC_get_heap_size (), free_bytes = GC_get_free_bytes ();
  size_t used = heap > free_bytes + sizeof (void *)
                ? heap - free_bytes : sizeof (void *);     /* never 0 */
  unsigned long overhead = (unsigned long) (100.0 * free_bytes / used);
  mp_gc_message (MP_VERBOSE_OVERHEAD, "estimated overhead: %lu%%", overhead);
  long max = atomic_load_explicit (&mp_max_overhead, memory_order_relaxed);
  if (max < MP_NEVER_COMPACT && overhead > (unsigned long) max)
    mp_compact_soon ();
}

void
mp_gc_on_event (int event)
{
  mp_collector_enter ();
  if (event == GC_EVENT_MARK_END)
    {
      end_of_marking ();
      mp_finalise_after_marking ();
    }
  else if (event == GC_EVENT_RECLAIM_END)
    {
      mp_tracked_after_reclaim ();
      mp_finalise_after_reclaim (last_was_full);
      mp_heap_note_size ();
      mp_roots_collected ();
      mp_timeline_note ();
      if (last_was_full)
        check_overhead ();
    }
  if (mp_eventlog_open ())
    mp_eventlog_gc (event, full_pending);
  mp_collector_leave ();
}

/* Boehm calls this before each full collection, incremental mode
   included (GC_EVENT_START misses the full collections it starts
   itself there).  */
void
mp_gc_on_full_start (void)
{
  full_pending = 1;
  mp_gc_message (MP_VERBOSE_MAJOR, "starting a major GC cycle (collection %ld)",
                 (long) mp_get_counter (&mp_major_collections) + 1);
}

void
mp_gc_on_heap_resize (unsigned long new_size)
{
  mp_add (&mp_heap_chunks, 1);
  atomic_store (&heap_seen, GC_get_heap_size ());
  mp_gc_message (MP_VERBOSE_HEAP, "growing heap to %lu KiB", new_size >> 10);
  if (mp_eventlog_open ())
    mp_eventlog_heap_growth (new_size);
}

/* Set in the thread that started Boehm when it is not the main thread:
   GC_init registered it, and nobody but us will unregister it.  */
static __thread int started_boehm;

/* setup's steps, in order.  Each is safe to run again: a child forked
   while another thread ran one runs it again (see setup).  */

static void
start_boehm (void)
{
  if (!GC_is_init_called ())
    {
      started_boehm = getpid () != gettid ();
      GC_set_handle_fork (-1);  /* its fork handlers, where it can */
    }
  GC_init ();
}

/* Threads the program creates without gc.h's redirection must be able
   to register.  This makes Boehm lock its allocator (and start its
   parallel markers), which it cannot switch on under a running
   allocation: setup_safe says when it may run.  */
static void
allow_threads (void)
{
  GC_allow_register_threads ();
}

/* Boehm's initial heap was made by GC_init, before we could see it.  A
   store, not an addition, so that it may run again; before our hooks,
   which count the growths.  */
static void
count_initial_heap (void)
{
  atomic_store (&mp_heap_chunks, 1);
  atomic_store (&heap_seen, GC_get_heap_size ());
}

static void
install_hooks (void)
{
  mp_hooks_install (0);
}

static void (*const setup_steps[]) (void) = {
  start_boehm, allow_threads, mp_roots_exclude_own, count_initial_heap,
  install_hooks, mp_marks_setup, mp_control_boehm_setup,
};

#define SETUP_STEPS (sizeof setup_steps / sizeof setup_steps[0])

/* The setup's lock, and the steps it has done.  A thread running the
   setup when the process forks is not in the child, which makes the
   lock again (mp_gc_setup_fork) and goes on from the step that thread
   was in: glibc's pthread_once, which the setup ran under before, runs
   the whole function again in such a child, and Boehm aborted on the
   roots excluded twice.  Nor may a fork wait for the setup: Boehm's
   prepare handler, which runs before ours, holds the lock the setup
   needs.  */
static pthread_mutex_t setup_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t steps_done;

static void
setup (void)
{
  for (; steps_done < SETUP_STEPS; steps_done++)
    setup_steps[steps_done] ();
  atomic_store_explicit (&started, 1, memory_order_release);
}

/* Whether the setup may run in this thread.  Boehm that the program
   started itself (in code built without the plugin, or before the
   runtime) and did not make multi-threaded yet takes no lock: the
   thread that started it, the only one it knows, may be inside it, and
   the setup's calls would race with it.  That thread alone may run the
   setup then.  Boehm multi-threaded runs its parallel markers, where it
   has them (more than one core, GC_MARKERS unset or above 1): without
   them, it cannot tell, and only a thread that Boehm knows may.  */
static int
setup_safe (void)
{
  return steps_done > 0 || !GC_is_init_called () || GC_get_parallel ()
         || GC_thread_is_registered ();
}

static void
setup_refused (void)
{
  static atomic_int warned;
  if (!atomic_exchange (&warned, 1))
    mp_warn ("Boehm GC was started by code built without memprof, and a "
             "thread it does not know allocates on its heap: memprof cannot "
             "register that thread while Boehm is not set up for threads; "
             "build the call of GC_INIT with memprof, or call "
             "GC_allow_register_threads after it");
}

/* Start Boehm and our accounting, once.  Return 1 if the calling thread
   is one that Boehm registered while starting and that we must
   unregister when it exits, 0 if not, and -1 if the setup may not run
   in this thread yet (setup_safe): not registered, it is asked again
   at its next call.  */
int
mp_gc_setup (void)
{
  if (mp_gc_started ())
    return started_boehm;
  mp_quiet_begin ();            /* Boehm's allocations (its markers' TLS)
                                   are not the program's */
  pthread_mutex_lock (&setup_lock);
  int safe = mp_gc_started () || setup_safe ();
  if (safe && !mp_gc_started ())
    setup ();
  pthread_mutex_unlock (&setup_lock);
  mp_quiet_end ();
  if (!safe)
    {
      setup_refused ();
      return -1;
    }
  return started_boehm;
}

/* Boehm started before the runtime (by another library's constructor,
   or by code built without the plugin): set up now, in the thread that
   loads the runtime, which is the one Boehm knows, rather than at the
   first GC allocation, in whichever thread makes it.  */
void
mp_gc_setup_if_started (void)
{
  if (mp_gc_linked () && GC_is_init_called ())
    mp_gc_setup ();
}

/* See fork.c, and setup_lock above.  */
void
mp_gc_setup_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_CHILD)
    pthread_mutex_init (&setup_lock, NULL);
}

/* Owner only: see struct mp_young and thread.h's mp_young_gate.  */
static void
set_limit (struct mp_young *y)
{
  mp_young_gate ((struct mp_thread *) ((char *) y
                                       - offsetof (struct mp_thread, young)));
}

/* Room for one more entry in Y: drop the decided entries, and grow the
   array if none was decided.  Runs under the GC lock, so that no
   collection reads the log while it moves.  */
static void *
make_room (void *arg)
{
  struct mp_young *y = arg;
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  size_t done = atomic_load_explicit (&y->done, memory_order_relaxed);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  if (done > 0)
    memmove (e, e + done, (n - done) * sizeof *e);
  atomic_store_explicit (&y->count, n - done, memory_order_relaxed);
  atomic_store_explicit (&y->done, 0, memory_order_relaxed);
  y->dropped += done;
  set_limit (y);
  if (n - done < y->capacity)
    return NULL;
  size_t cap = y->capacity ? y->capacity * 2 : 4096;
  e = realloc (e, cap * sizeof *e);
  if (e == NULL)
    return NULL;                /* still full: see mp_young_log_slow */
  atomic_store_explicit (&y->entries, e, memory_order_relaxed);
  y->capacity = cap;
  set_limit (y);
  return NULL;
}

/* Make room in T's log for one more entry.  Being rare, this is also
   where a program's replacing our callbacks is noticed: no collection is
   counted then, and without a decision the log would grow forever.  */
static void
young_make_room (struct mp_thread *t)
{
  if (mp_hooks_install (1))
    mp_warn ("the program replaced memprof's Boehm callbacks; they are "
             "back, but the collections in between were not counted");
  GC_call_with_alloc_lock (make_room, &t->young);
}

/* The index of a thread's log: from the address of each undecided
   entry to its position (dropped + i), for mp_young_forget when the
   block is not among the latest entries.  A thread that frees its young
   blocks oldest first would otherwise search its whole log each time;
   one that does so a few times an epoch is better off searching.  So
   the searches of an epoch go through the log until they have read
   SCANS times its undecided entries; then the index is filled, and from
   then on each search first adds the entries logged since the last one
   (`upto').  Appends never touch it.  SCANS is large: a search reads
   the log in order, a few instructions an entry, where the index puts
   each entry at a random slot of a table four times the log's size,
   most often a cache miss (w3m, whose GC_realloc searches far a few
   times an epoch, spent 2.6% of its time in index_slot with 4, and
   its searches two fifths fewer instructions with 64).

   Its slots stay from epoch to epoch, and each filling gets a new
   `stamp', carried by its slots: a slot with another stamp is empty, so
   nothing is cleared and no fresh memory is touched.  Owner only.  */
struct young_index
{
  uint64_t epoch;               /* mp_gc_epoch that the rest is about */
  size_t scanned;               /* entries read by the epoch's searches */
  int filled;                   /* whether the slots are the epoch's */
  uint64_t stamp;               /* the filling's, 1 to STAMP_MAX */
  size_t upto;                  /* entries indexed: positions < upto */
  size_t used;                  /* slots of this filling */
  size_t mask;                  /* slots searched - 1, a power of 2 - 1 */
  size_t capacity;              /* slots allocated, >= mask + 1 */
  struct { uint64_t key; size_t pos; } *slots;      /* key: slot_key */
};

#define SCANS 64

/* A slot's key: the address, with the stamp in the bits the address
   leaves (its low 4, which 16-byte alignment keeps 0, and its top 16).  */
#define STAMP_MAX ((UINT64_C (1) << 20) - 1)

static inline uint64_t
slot_key (uintptr_t addr, uint64_t stamp)
{
  return addr | (stamp & MP_EPOCH_MASK) | (stamp >> 4 << MP_WORDS_SHIFT);
}

/* ADDR's slot in X: its own, or the empty one where it would go.  */
static size_t
index_slot (const struct young_index *x, uintptr_t addr)
{
  uint64_t key = slot_key (addr, x->stamp);
  size_t i = (size_t) ((addr >> 4) * UINT64_C (0x9e3779b97f4a7c15)) & x->mask;
  for (;; i = (i + 1) & x->mask)
    {
      uint64_t k = x->slots[i].key;
      if (k == key || ((k ^ key) & ~MP_ADDR_MASK) != 0)
        return i;
    }
}

/* Map ADDR to POS: a later block at the same address replaces the
   earlier, freed one.  */
static void
index_put (struct young_index *x, uintptr_t addr, size_t pos)
{
  size_t i = index_slot (x, addr);
  uint64_t key = slot_key (addr, x->stamp);
  x->used += x->slots[i].key != key;
  x->slots[i].key = key;
  x->slots[i].pos = pos;
}

/* Y's index, about EPOCH; NULL if there is no memory for it.  */
static struct young_index *
index_of (struct mp_young *y, uint64_t epoch)
{
  struct young_index *x = y->index;
  if (x == NULL && (x = y->index = calloc (1, sizeof *x)) == NULL)
    return NULL;
  if (x->epoch != epoch)
    {
      x->epoch = epoch;
      x->scanned = 0;
      x->filled = 0;
    }
  return x;
}

/* Start an empty filling of X, Y's index, with room for twice ENTRIES:
   -1 if there is no memory for it.  */
static int
index_reset (struct mp_young *y, struct young_index *x, size_t entries)
{
  size_t size = 1024;
  while (size < 4 * entries)
    size *= 2;
  if (x->capacity < size)
    {
      free (x->slots);
      x->capacity = 0;
      if ((x->slots = calloc (size, sizeof x->slots[0])) == NULL)
        return -1;
      x->capacity = size;
    }
  if (++x->stamp > STAMP_MAX)   /* every stamp is on some slot: clear */
    {
      memset (x->slots, 0, x->capacity * sizeof x->slots[0]);
      x->stamp = 1;
    }
  x->filled = 1;
  x->mask = size - 1;
  x->used = 0;
  x->upto = y->dropped + atomic_load_explicit (&y->done, memory_order_relaxed);
  return 0;
}

/* Bring X, Y's index, up to date: every undecided entry in it.  -1 if
   there is no memory for it.  */
static int
index_update (struct mp_young *y, struct young_index *x)
{
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  size_t done = atomic_load_explicit (&y->done, memory_order_relaxed);
  if ((!x->filled || x->upto < y->dropped + done
       || 2 * (x->used + y->dropped + n - x->upto) > x->mask)
      && index_reset (y, x, n - done) != 0)
    return -1;
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  for (size_t i = x->upto - y->dropped; i < n; i++)
    {
      uint64_t v = __atomic_load_n (&e[i], __ATOMIC_RELAXED);
      if (live_entry (v))
        index_put (x, v & MP_ADDR_MASK, y->dropped + i);
    }
  x->upto = y->dropped + n;
  return 0;
}

static int
log_full (const struct mp_young *y)
{
  return atomic_load_explicit (&y->count, memory_order_relaxed)
         == y->capacity;
}

/* Make room in T's full log, short of memory to grow it, in EPOCH: a
   collection decides every entry, which can then go.  Collections the
   program disabled do not come, the log only grows then, and past the
   last room a block goes unlogged: counted in the minor heap, never as
   promoted, which the report says.  Until a collection comes, the next
   blocks go the same way at once.  Return 1 if there is room.  */
static int
log_out_of_memory (struct mp_thread *t, uint64_t words, uint64_t epoch)
{
  static atomic_int warned_collect, warned_unlogged;
  struct mp_young *y = &t->young;
  if (y->stuck != epoch + 1)
    {
      if (!atomic_exchange (&warned_collect, 1))
        mp_warn ("out of memory for the young-block log: collecting early");
      mp_collect_minor ("young-block log full");
      young_make_room (t);
      if (!log_full (y))
        return 1;
      y->stuck = atomic_load (&mp_gc_epoch) + 1;
      if (!atomic_exchange (&warned_unlogged, 1))
        mp_warn ("out of memory for the young-block log, and no "
                 "collection empties it: blocks go unlogged, not counted "
                 "as promoted");
    }
  mp_add (&mp_young_unlogged, 1);
  mp_add (&mp_young_unlogged_words, (int64_t) words);
  return 0;
}

/* mp_young_log's way when the log is full, at a look at the minor heap
   budget, or at the first append after a collection decided entries
   (decide_log lowered the limit to 0): make_room then drops them, and
   its set_limit is what raises the limit again.  */
void
mp_young_log_slow (struct mp_thread *t, void *base, uint64_t words)
{
  /* A thread that the setup may not register yet (boehm.c's
     gc_thread_setup) leaves its blocks out: no collection decides them
     before the setup, and making room would call Boehm.  */
  if (!mp_gc_started ())
    return;
  struct mp_young *y = &t->young;
  /* Before young_make_room waits for Boehm's lock, which may be while
     another thread collects (the first append after each collection
     comes here), and before log_out_of_memory collects: the block
     lives through that collection, and is promoted by it, in the
     counters and in the tracker, whose sample reads the epoch from
     this entry (mp_young_epoch_of).  */
  uint64_t epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_acquire);
  if ((log_full (y)
       || atomic_load_explicit (&y->done, memory_order_relaxed) > 0)
      && y->stuck != epoch + 1)
    young_make_room (t);
  if (log_full (y) && !log_out_of_memory (t, words, epoch))
    return;
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  __atomic_store_n (&e[n], mp_young_entry (base, words, epoch),
                    __ATOMIC_RELAXED);
  atomic_store_explicit (&y->count, n + 1, memory_order_release);
  if (y->dropped + n >= y->check_at || !mp_young_budget_seen (t))
    mp_young_budget_check (t);
}

uint64_t
mp_young_epoch_of (struct mp_thread *t, const void *base)
{
  struct mp_young *y = &t->young;
  uint64_t now = atomic_load_explicit (&mp_gc_epoch, memory_order_acquire);
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  if (n == 0)
    return now;
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  uint64_t v = __atomic_load_n (&e[n - 1], __ATOMIC_RELAXED);
  if ((v & MP_ADDR_MASK) != (uintptr_t) base)
    return now;
  /* The entry's epoch is the epoch mod 16: fewer collections than that
     come between an append and its sample.  */
  return now - ((now - v) & MP_EPOCH_MASK);
}

/* Drop entry I of Y if it is BASE's, logged in EPOCH; 1 if it was.  */
static int
drop_entry (struct mp_young *y, size_t i, uintptr_t base, uint64_t epoch)
{
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  uint64_t v = __atomic_load_n (&e[i], __ATOMIC_RELAXED);
  /* An entry of an older epoch survived a collection already: it stays,
     and so may share its address with a later block.  */
  if ((v & MP_ADDR_MASK) != base
      || (v & MP_EPOCH_MASK) != (epoch & MP_EPOCH_MASK))
    return 0;
  __atomic_store_n (&e[i], v & ~(MP_ADDR_MASK | MP_EPOCH_MASK),
                    __ATOMIC_RELAXED);
  return 1;
}

/* Whether entry *P is BASE's.  */
static inline int
entry_of (const uint64_t *p, uintptr_t base)
{
  return (__atomic_load_n (p, __ATOMIC_RELAXED) & MP_ADDR_MASK) == base;
}

/* The newest of entries [FROM, TO) of E that is BASE's, or -1.  Four
   entries a turn of the loop, through a pointer: a GC_realloc that
   moves a young block searches tens of entries back (w3m's strings,
   grown while other blocks are allocated), and the loop by index took
   nine instructions an entry.  */
static ptrdiff_t
newest (const uint64_t *e, size_t from, size_t to, uintptr_t base)
{
  const uint64_t *p = e + to, *lo = e + from;
  for (; p - lo >= 4; p -= 4)
    if (MP_UNLIKELY (entry_of (p - 1, base) || entry_of (p - 2, base)
                     || entry_of (p - 3, base) || entry_of (p - 4, base)))
      break;
  while (p > lo)
    if (entry_of (--p, base))
      return p - e;
  return -1;
}

/* The same among Y's undecided entries before STOP, in EPOCH: searched
   or through the index (see struct young_index).  */
static ptrdiff_t
newest_far (struct mp_young *y, uintptr_t base, uint64_t epoch, size_t stop)
{
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  size_t done = atomic_load_explicit (&y->done, memory_order_relaxed);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  struct young_index *x = index_of (y, epoch);
  if (x != NULL && !x->filled)
    x->scanned += stop - done;
  if (x == NULL || (!x->filled && x->scanned <= SCANS * (n - done))
      || index_update (y, x) != 0)
    return newest (e, done, stop, base);
  size_t slot = index_slot (x, base);
  size_t pos = x->slots[slot].pos;
  /* A slot of this filling is of an undecided entry.  */
  return x->slots[slot].key == slot_key (base, x->stamp)
         && pos >= y->dropped + done && pos < y->dropped + n
         ? (ptrdiff_t) (pos - y->dropped) : -1;
}

/* Add BASE to `unfound', under the GC lock.  */
static void *
note_unfound (void *base)
{
  if (unfound.count < UNFOUND_MAX)
    unfound.addr[unfound.count++] = (uintptr_t) base;
  else
    unfound.overflow = 1;
  return NULL;
}

/* BASE, allocated by T, is being freed: make sure its entry, if it is
   still young, is not promoted.  Its newest entry says if it is.  */
void
mp_young_forget (struct mp_thread *t, void *base)
{
  struct mp_young *y = &t->young;
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  size_t done = atomic_load_explicit (&y->done, memory_order_relaxed);
  size_t stop = n - done > FORGET_WINDOW ? n - FORGET_WINDOW : done;
  uint64_t epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_relaxed);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  ptrdiff_t i = newest (e, stop, n, (uintptr_t) base);
  if (i < 0 && stop > done)
    i = newest_far (y, (uintptr_t) base, epoch, stop);
  if (i < 0 || !drop_entry (y, (size_t) i, (uintptr_t) base, epoch))
    GC_call_with_alloc_lock (note_unfound, base);
}

/* ---- the minor heap budget ------------------------------------------- */

/* Young words a thread may allocate between collections, 0 for no limit
   (control.c's minor_heap_size), and its generation: each change bumps
   it, and a thread that has not seen the latest checks its log.  */
static _Atomic uint64_t budget;
_Atomic unsigned mp_budget_gen;

void
mp_young_set_budget (uint64_t words)
{
  atomic_store (&budget, words);
  atomic_fetch_add (&mp_budget_gen, 1);
  mp_sample_prompt ();          /* every thread to its slow path */
}

/* Add the words of T's entries logged since the last look to its count
   for the current epoch.  */
static void
budget_sum (struct mp_young *y)
{
  uint64_t epoch;
  size_t done;
  do                            /* `done' of the collection that ended EPOCH */
    {
      epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_acquire);
      done = atomic_load_explicit (&y->done, memory_order_relaxed);
    }
  while (epoch != atomic_load_explicit (&mp_gc_epoch, memory_order_acquire));
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  if (y->budget_epoch != epoch)
    {
      y->budget_epoch = epoch;
      y->budget_words = 0;
      if (y->summed < y->dropped + done)
        y->summed = y->dropped + done;  /* the rest came before it */
    }
  if (y->summed < y->dropped)
    y->summed = y->dropped;
  for (size_t i = y->summed - y->dropped; i < n; i++)
    y->budget_words += __atomic_load_n (&e[i], __ATOMIC_RELAXED)
                       >> MP_WORDS_SHIFT;
  y->summed = y->dropped + n;
}

/* A thread takes over record T, maybe of a thread that exited: the
   young words of that thread are not its own.  */
void
mp_young_claim (struct mp_thread *t)
{
  struct mp_young *y = &t->young;
  y->budget_epoch = atomic_load (&mp_gc_epoch);
  y->budget_words = 0;
  y->summed = y->dropped + atomic_load_explicit (&y->count,
                                                 memory_order_relaxed);
  set_limit (y);                /* the thread is not known to Boehm yet */
}

/* The owner's look at its budget: once the young words since the last
   collection reach it, a minor collection is due, and runs as soon as
   the block just logged has been through sampling (so that a tracker
   sees it young, then promoted).  The next look comes early enough that
   no append before it can reach the budget (each adds at most
   MP_MAX_YOUNG_WOSIZE words).  */
void
mp_young_budget_check (struct mp_thread *t)
{
  struct mp_young *y = &t->young;
  y->budget_gen = atomic_load (&mp_budget_gen);
  uint64_t b = atomic_load (&budget);
  if (b == 0)
    y->check_at = SIZE_MAX;
  else
    {
      budget_sum (y);
      if (y->budget_words >= b && !y->minor_due)
        {
          y->minor_due = 1;     /* once the block is sampled: */
          mp_sample_interrupt (t);      /* mp_sample_slow collects */
        }
      /* The next append is at position `summed'.  */
      uint64_t left = y->budget_words < b ? b - y->budget_words : 1;
      y->check_at = y->summed + (left - 1) / MP_MAX_YOUNG_WOSIZE;
    }
  set_limit (y);
}

/* ---- for mp_stat (heap.c) -------------------------------------------- */

void
mp_young_unmarked (uint64_t *blocks, uint64_t *words)
{
  *blocks = *words = 0;
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    {
      size_t i;
      uint64_t *e;
      size_t n = undecided (&t->young, &i, &e);
      for (; i < n; i++)
        {
          uint64_t v = __atomic_load_n (&e[i], __ATOMIC_RELAXED);
          if (live_entry (v) && present (v) && !marked (v))
            {
              ++*blocks;
              *words += v >> MP_WORDS_SHIFT;
            }
        }
    }
}
