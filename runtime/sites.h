/* sites.h -- numbering call sites, and their per-thread counters
   (sites.c), and the numbered sites for those who read them: the
   reports, the stat record, the fatal-signal summary.  internal.h
   includes it: a thread's record (thread.c) is the head of its array
   of counters.  */

#ifndef MEMPROF_SITES_H
#define MEMPROF_SITES_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "site.h"

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
  _Atomic int64_t c[SC_COUNT];  /* mp_counters (internal.h) */
};

/* Sites are numbered from 1.  A thread's counters are one array indexed
   by site number, reserved for MP_MAX_SITES slots (the thread's record
   included; fewer if the address space runs short) and committed
   MP_COMMIT_SITES at a time as sites get numbers (sites.c).  */
#define MP_MAX_SITES (1u << 20)
#define MP_COMMIT_SITES (1u << 12)

/* The site the runtime charges what no descriptor describes: calls from
   descriptors of an ABI it does not read, and sites past the slots the
   records reserve (MP_MAX_SITES, fewer if the address space runs
   short).  */
extern struct mp_site mp_unknown_site;

unsigned mp_site_number (const struct mp_site *site);
struct mp_thread;
struct mp_thread *mp_sites_new_record (void);

/* Block the calling thread's signals, all but those of faults (a fault
   under a blocked one would kill the process without its handler),
   saving its mask in *OLD: for the few instructions or system calls
   that a handler of the same thread must not interrupt, where nothing
   waits for another thread (a collector that stops the world would
   wait for this one).  */
void mp_block_signals (sigset_t *old);

/* Sum the counters of one site over all threads; IDs from 1.  */
void mp_site_sum (unsigned id, int64_t out[SC_COUNT]);
unsigned mp_site_count (void);
const struct mp_site *mp_site_by_number (unsigned id);

/* The object mapped at [LO, HI) is about to be unloaded (dlclose):
   the descriptors of its sites, which the plugin compiled into it, are
   copied, so that the reports still name them.  */
void mp_sites_unloading (uintptr_t lo, uintptr_t hi);

/* The thread records' memory: their number, bytes, and the room left
   for sites (the own-memory section of the report).  */
void mp_sites_memory (size_t *records, size_t *bytes, unsigned *room);

#endif
