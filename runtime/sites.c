/* sites.c -- numbering call sites, and their per-thread counters.

   The plugin's descriptors are scattered over every object file; the
   runtime learns of a site when it first runs.  Numbering it then makes
   each later visit an index: the descriptor's `id` is read with one load,
   and the thread's counters for it are a slot of the array that starts
   with the thread's record.  Each record reserves address space for
   MP_MAX_SITES slots; they are committed for every record at once, as
   numbering reaches them, so that an owner never has to check.

   Reserved address space counts against RLIMIT_AS: 128 MiB a thread
   fills a limit of a few GiB with a few dozen threads.  A reservation
   refused shrinks every record's, down to the slots committed, rather
   than leave a thread without counters; the sites numbered later are
   then counted as <unknown>, which keeps every count exact, and only
   the sites they belong to are lost.  */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "internal.h"
#include "stats.h"
#include "fork.h"
#include "sites.h"

/* Charged for descriptors of an ABI we do not read and for sites past
   the slots that the records reserve.  */
struct mp_site mp_unknown_site = {
  MP_SITE_ABI, 0, "<unknown>", "<unknown>", "<unknown>", 0, 0,
  MP_KIND_INTERNAL, 0, NULL, 0, 0
};

/* The numbered sites: table[id] for id in 1..count.  Guarded by
   table_lock for writers; readers load `count` with acquire and may then
   read table[1..count] without the lock, since an entry only changes to
   a copy of the same descriptor (mp_sites_unloading) and the array is
   only replaced with its old copy kept (see grow_table).  */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* The thread whose fork holds table_lock, from mp_sites_fork's
   prepare step to its parent or child step: set by that thread once it
   has the lock, its signals blocked, and cleared before it gives the
   lock back; `forker' is read only after `forking' is seen set.  */
static pthread_t forker;
static atomic_int forking;

/* How lock_table left the table: the signals to restore, and whether
   it took the lock (not when borrowed: see lock_table).  */
struct table_hold
{
  sigset_t old;
  int held;
};

void
mp_block_signals (sigset_t *old)
{
  static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP,
                                SIGABRT, SIGSYS };
  sigset_t block;
  sigfillset (&block);
  for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
    sigdelset (&block, faults[i]);
  pthread_sigmask (SIG_BLOCK, &block, old);
}

/* Take table_lock with the thread's signals blocked, and give it back.
   A signal handler that allocates or frees needs the table at its
   thread's first call (the record) and at a site's first call (its
   number): it must never find the lock held by the thread it
   interrupted, which could not go on to release it.  Nothing done
   under the lock waits for another thread (no allocator's lock, no
   stdio: warnings are written after it), and a thread waiting for the
   lock waits with its signals deliverable (a try, then a yield): so a
   collector that stops the world never waits for long, and Boehm's
   signal is taken as the lock is released or while it is awaited.
   The fork's hold is the exception: its thread holds the lock with
   signals deliverable and touches nothing, and a handler of that thread
   uses the table without the lock.  */
static void
lock_table (struct table_hold *h)
{
  for (unsigned tries = 0;; tries++)
    {
      mp_block_signals (&h->old);
      h->held = 0;
      if (atomic_load (&forking) && pthread_equal (forker, pthread_self ()))
        return;
      if (pthread_mutex_trylock (&table_lock) == 0)
        {
          h->held = 1;
          return;
        }
      pthread_sigmask (SIG_SETMASK, &h->old, NULL);
      /* A fork may hold the lock for as long as its handlers wait
         (callstack.c's, up to seconds): then sleep rather than spin.  */
      struct timespec nap = { 0, 50000 };
      if (tries < 64)
        sched_yield ();
      else
        nanosleep (&nap, NULL);
    }
}

static void
unlock_table (const struct table_hold *h)
{
  if (h->held)
    pthread_mutex_unlock (&table_lock);
  pthread_sigmask (SIG_SETMASK, &h->old, NULL);
}

static const struct mp_site *_Atomic *table;
static _Atomic unsigned count;
static unsigned capacity;

/* Counter slots [0, committed) are usable in every thread record, and
   every record reserves `reserved' slots: MP_MAX_SITES, unless the
   address space ran short (make_record).  Guarded by table_lock, as are
   the registry's pushes (see mp_sites_new_record).  */
static unsigned committed;
static unsigned reserved = MP_MAX_SITES;

/* Whether numbering has failed yet, under table_lock: it says so once.  */
static int told_full;

/* Commit T's counter slots [FROM, TO); FROM is a multiple of
   MP_COMMIT_SITES, so the range starts on a page.  */
static int
commit_slots (struct mp_thread *t, unsigned from, unsigned to)
{
  size_t slot = sizeof (struct mp_site_counts);
  return mprotect ((char *) t + from * slot, (to - from) * slot,
                   PROT_READ | PROT_WRITE);
}

/* Make the slots of site ID usable in every record; -1 if the memory is
   refused.  */
static int
commit_through (unsigned id)
{
  while (MP_RECORD_SLOTS - 1 + id >= committed)
    {
      unsigned next = committed + MP_COMMIT_SITES;
      for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
        if (commit_slots (t, committed, next) != 0)
          return -1;
      committed = next;
    }
  return 0;
}

/* Mapped rather than malloc'ed: under table_lock, with signals blocked
   (lock_table).  LeakSanitizer is told of it, for the copies of
   descriptors (copy_site) that it alone points to.  */
static int
grow_table (void)
{
  unsigned cap = capacity ? capacity * 2 : 1024;
  size_t size = cap * sizeof *table;
  const struct mp_site *_Atomic *t = mmap (NULL, size, PROT_READ | PROT_WRITE,
                                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (t == MAP_FAILED)
    return -1;
  if (__lsan_register_root_region)
    __lsan_register_root_region ((void *) t, size);
  if (table)
    memcpy ((void *) t, (void *) table, (count + 1) * sizeof *t);
  /* The old array is kept on purpose: a reader may still be walking it.
     Doubling bounds the waste to the size of the final table.  */
  atomic_store_explicit ((_Atomic (void *) *) &table, (void *) t,
                         memory_order_release);
  capacity = cap;
  return 0;
}

/* The length of S with its nul, 0 for NULL.  */
static size_t
size_of (const char *s)
{
  return s ? strlen (s) + 1 : 0;
}

/* S copied to *AT, which moves past it.  */
static const char *
copy_at (char **at, const char *s)
{
  if (s == NULL)
    return NULL;
  size_t n = strlen (s) + 1;
  char *copy = memcpy (*at, s, n);
  *at += n;
  return copy;
}

/* A copy of SITE in the runtime's memory, its strings and inline
   frames with it; SITE itself without the memory.  */
static const struct mp_site *
copy_site (const struct mp_site *site)
{
  size_t n = sizeof *site + site->n_inlined * sizeof *site->inlined
             + size_of (site->file) + size_of (site->function)
             + size_of (site->callee);
  for (unsigned i = 0; i < site->n_inlined; i++)
    n += size_of (site->inlined[i].function) + size_of (site->inlined[i].file);
  struct mp_site *copy = malloc (n);
  if (copy == NULL)
    return site;
  struct mp_inline_frame *frames = (struct mp_inline_frame *) (copy + 1);
  char *at = (char *) (frames + site->n_inlined);
  /* A descriptor of ABI 1 ends before stats_omitted (site.h).  */
  memset (copy, 0, sizeof *copy);
  memcpy (copy, site, site->abi == 1 ? offsetof (struct mp_site, stats_omitted)
                                     : sizeof *site);
  copy->file = copy_at (&at, site->file);
  copy->function = copy_at (&at, site->function);
  copy->callee = copy_at (&at, site->callee);
  for (unsigned i = 0; i < site->n_inlined; i++)
    {
      frames[i] = site->inlined[i];
      frames[i].function = copy_at (&at, site->inlined[i].function);
      frames[i].file = copy_at (&at, site->inlined[i].file);
    }
  copy->inlined = site->n_inlined ? frames : NULL;
  return copy;
}

/* Each copy is made before the lock is taken, as malloc may wait (see
   lock_table).  Only unloading changes an entry, and the objects that
   two unloadings free are not the same: the entry read is still the
   descriptor when the copy replaces it.  */
void
mp_sites_unloading (uintptr_t lo, uintptr_t hi)
{
  unsigned n = mp_site_count ();
  for (unsigned id = 1; id <= n; id++)
    {
      const struct mp_site *site = mp_site_by_number (id);
      if ((uintptr_t) site < lo || (uintptr_t) site >= hi)
        continue;
      const struct mp_site *copy = copy_site (site);
      struct table_hold hold;
      lock_table (&hold);
      atomic_store_explicit (&table[id], copy, memory_order_release);
      unlock_table (&hold);
    }
}

/* Number SITE; 0 if the table is full.  The first number made is 1, for
   mp_unknown_site, so that a full table still has somewhere to count.  */
static unsigned
number_locked (struct mp_site *site)
{
  unsigned n = atomic_load_explicit (&count, memory_order_relaxed);
  if (n == 0 && site != &mp_unknown_site && number_locked (&mp_unknown_site) == 0)
    return 0;
  n = atomic_load_explicit (&count, memory_order_relaxed);
  if (MP_RECORD_SLOTS + n >= reserved
      || (n + 1 >= capacity && grow_table () != 0)
      || commit_through (n + 1) != 0)
    return 0;
  table[n + 1] = site;
  mp_stats_site_numbered (site);
  atomic_store_explicit (&count, n + 1, memory_order_release);
  __atomic_store_n (&site->id, n + 1, __ATOMIC_RELEASE);
  return n + 1;
}

/* The number of SITE, giving it one if it has none.  */
unsigned
mp_site_number (const struct mp_site *csite)
{
  struct mp_site *site = (struct mp_site *) csite;
  if (site->abi < MP_SITE_ABI_FIRST || site->abi > MP_SITE_ABI)
    site = &mp_unknown_site;
  unsigned id = __atomic_load_n (&site->id, __ATOMIC_ACQUIRE);
  if (id)
    return id;
  struct table_hold hold;
  lock_table (&hold);
  id = site->id ? site->id : number_locked (site);
  int tell = 0;
  if (id == 0)
    {
      tell = !told_full;
      told_full = 1;
      mp_stats_site_numbered (site);
      id = mp_unknown_site.id;
      __atomic_store_n (&site->id, id, __ATOMIC_RELEASE);
    }
  unlock_table (&hold);
  if (tell)
    mp_warn ("cannot number more allocation sites; "
             "the rest are counted as <unknown>");
  if (id == 0)
    abort ();   /* not even the first site could be numbered: no memory */
  return id;
}

/* The address space of a record of SLOTS slots; NULL if refused.  */
static struct mp_thread *
reserve (unsigned slots)
{
  void *t = mmap (NULL, (size_t) slots * sizeof (struct mp_site_counts),
                  PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                  -1, 0);
  return t == MAP_FAILED ? NULL : t;
}

/* Make every record reserve SLOTS slots, fewer than now but no fewer
   than are committed, giving back the rest of the records made.  Sites
   numbered past them are counted as <unknown> (number_locked).  */
static void
shrink_to (unsigned slots)
{
  size_t slot = sizeof (struct mp_site_counts);
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    {
      munmap ((char *) t + (size_t) slots * slot,
              (size_t) (reserved - slots) * slot);
      if (__lsan_unregister_root_region)
        {
          __lsan_unregister_root_region (t, (size_t) reserved * slot);
          __lsan_register_root_region (t, (size_t) slots * slot);
        }
    }
  reserved = slots;
}

/* A record reserved, with the slots every record has committed; NULL if
   the memory is refused.  The reservation shrinks rather than fail.  */
static struct mp_thread *
make_record (int *err)
{
  if (committed == 0)
    committed = MP_COMMIT_SITES;
  struct mp_thread *t;
  while ((t = reserve (reserved)) == NULL && reserved > committed)
    {
      *err = errno;
      shrink_to (reserved / 2 > committed ? reserved / 2 : committed);
    }
  size_t size = (size_t) reserved * sizeof (struct mp_site_counts);
  if (t != NULL && commit_slots (t, 0, committed) != 0)
    {
      munmap (t, size);
      return NULL;
    }
  /* The record holds malloc'd blocks: the young-block log and its index.  */
  if (t != NULL && __lsan_register_root_region)
    __lsan_register_root_region (t, size);
  return t;
}

/* A new record, pushed on the registry in use; NULL if the memory is
   refused.  Made under table_lock, so that a site numbered meanwhile
   cannot commit slots in the other records and miss this one.  */
struct mp_thread *
mp_sites_new_record (void)
{
  struct table_hold hold;
  lock_table (&hold);
  unsigned before = reserved;
  int err = 0;
  struct mp_thread *t = make_record (&err);
  int saved = errno;
  if (t != NULL)
    {
      atomic_store (&t->in_use, 1);
      t->next = atomic_load (&mp_threads);
      atomic_store (&mp_threads, t);
    }
  unsigned now = reserved;
  unlock_table (&hold);
  if (now < before)
    mp_warn ("cannot reserve a thread's counters for %u sites (%s): "
             "reserving %u; sites past them are counted as <unknown>",
             before - (unsigned) MP_RECORD_SLOTS, strerror (err),
             now - (unsigned) MP_RECORD_SLOTS);
  errno = saved;
  return t;
}

unsigned
mp_site_count (void)
{
  return atomic_load_explicit (&count, memory_order_acquire);
}

const struct mp_site *
mp_site_by_number (unsigned id)
{
  const struct mp_site *_Atomic *t
    = atomic_load_explicit ((_Atomic (void *) *) &table, memory_order_acquire);
  return t[id];
}

/* Add up site ID's counters over every thread record.  */
void
mp_site_sum (unsigned id, int64_t out[SC_COUNT])
{
  memset (out, 0, SC_COUNT * sizeof *out);
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    {
      const struct mp_site_counts *c = mp_counts_of (t, id);
      for (int i = 0; i < SC_COUNT; i++)
        out[i] += mp_get_counter (&c->c[i]);
    }
}

/* See fork.c.  The lock is taken as lock_table takes it, so that no
   handler of this thread comes between the lock and `forking'; then
   the thread's signals are its own again, for the rest of the fork's
   handlers, which may wait (see lock_table).  */
void
mp_sites_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_PREPARE)
    {
      struct table_hold hold;
      lock_table (&hold);
      forker = pthread_self ();
      atomic_store (&forking, 1);
      pthread_sigmask (SIG_SETMASK, &hold.old, NULL);
      return;
    }
  atomic_store (&forking, 0);
  pthread_mutex_unlock (&table_lock);
}

/* The thread records, the bytes of their committed counters and of the
   site table, and the sites a record has room for, for the report
   (own.c).  */
void
mp_sites_memory (size_t *records, size_t *bytes, unsigned *room)
{
  struct table_hold hold;
  lock_table (&hold);
  *room = reserved - (unsigned) MP_RECORD_SLOTS;
  size_t n = 0;
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    n++;
  *records = n;
  *bytes = n * committed * sizeof (struct mp_site_counts)
           + capacity * sizeof *table;
  unlock_table (&hold);
}
