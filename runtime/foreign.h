/* foreign.h -- the sites of the allocations no rewritten call made
   (foreign.c): one per calling address, named at report time.  */

#ifndef MEMPROF_FOREIGN_H
#define MEMPROF_FOREIGN_H

#include "fork.h"
#include "internal.h"

/* What the interposed function was: the site's callee.  */
enum mp_foreign_call
{
  MP_FOREIGN_MALLOC, MP_FOREIGN_CALLOC, MP_FOREIGN_REALLOC,
  MP_FOREIGN_REALLOCARRAY, MP_FOREIGN_FREE, MP_FOREIGN_MEMALIGN,
  MP_FOREIGN_ALIGNED_ALLOC, MP_FOREIGN_POSIX_MEMALIGN, MP_FOREIGN_VALLOC,
  MP_FOREIGN_PVALLOC, MP_FOREIGN_NEW, MP_FOREIGN_NEW_ARRAY,
  MP_FOREIGN_DELETE, MP_FOREIGN_DELETE_ARRAY, MP_FOREIGN_CALLS
};

const struct mp_site *mp_foreign_site_slow (const void *ra,
                                            enum mp_foreign_call call);

/* The site of the call of CALL that returns to RA: a cache of the
   thread's first, then the table of every foreign site.  The cache has
   sets of two entries, the one used last first, found by bits 4 to 12
   of RA, which take two instructions where a hash took five.  A
   program's busy calls of malloc and free, unrolled and inlined, are
   some tens of return addresses, mostly close together: those less than
   8 KiB apart are in sets of their own but for two calls in the same
   16 bytes, which share one; those further apart share sets as by a
   hash, three of forty in one set (which slows every call of theirs)
   in one program in thirty.  16 KiB a thread, in the runtime's memory
   (see foreign.c).  */
#define MP_FOREIGN_SET_BITS 9
#define MP_FOREIGN_CACHE (2 << MP_FOREIGN_SET_BITS)
struct mp_foreign_entry
{
  const void *ra;
  const struct mp_site *site;   /* not NULL where ra is set */
};
/* The cache the lookups read: the thread's (foreign.c), or, while the
   thread is quiet (alloc.h) or before it looked a site up,
   mp_foreign_none, which has none, so that a lookup is a miss.  */
extern __thread const struct mp_foreign_entry *mp_foreign_sets
  __attribute__ ((tls_model ("initial-exec")));
extern const struct mp_foreign_entry mp_foreign_none[MP_FOREIGN_CACHE];

/* The set of RA in CACHE: its two entries, at byte offset 32 times
   bits 4 to 12 of RA, that is RA doubled, masked.  */
static inline const struct mp_foreign_entry *
mp_foreign_set (const struct mp_foreign_entry *cache, const void *ra)
{
  uintptr_t offset = ((uintptr_t) ra << 1)
                     & (((uintptr_t) 1 << MP_FOREIGN_SET_BITS) - 1)
                       * 2 * sizeof (struct mp_foreign_entry);
  return (const struct mp_foreign_entry *) ((const char *) cache + offset);
}

/* The entry of RA if the thread's cache has it and the thread is not
   quiet, else NULL.  */
static inline const struct mp_foreign_entry *
mp_foreign_entry (const void *ra)
{
  const struct mp_foreign_entry *e = mp_foreign_set (mp_foreign_sets, ra);
  if (MP_LIKELY (e[0].ra == ra))
    return &e[0];
  if (MP_LIKELY (e[1].ra == ra))
    return &e[1];
  return NULL;
}

/* The site of RA if the thread's cache has it, else NULL.  */
static inline const struct mp_site *
mp_foreign_cached (const void *ra)
{
  const struct mp_foreign_entry *e = mp_foreign_entry (ra);
  return e != NULL ? e->site : NULL;
}

static inline const struct mp_site *
mp_foreign_site (const void *ra, enum mp_foreign_call call)
{
  const struct mp_site *site = mp_foreign_cached (ra);
  return MP_LIKELY (site != NULL) ? site : mp_foreign_site_slow (ra, call);
}

/* Name every foreign site from its calling address, for a report:
   under no lock, in quiet.  */
void mp_foreign_name_all (void);

/* The object mapped at [LO, HI) is about to be unloaded: its sites are
   named now (unload.c).  Under no lock.  */
void mp_foreign_unloading (uintptr_t lo, uintptr_t hi);
/* It is unloaded: its sites are retired, out of the table and of every
   thread's cache, so that a call from one of their addresses (another
   object's, mapped there since) makes a site of its own.  */
void mp_foreign_unloaded (uintptr_t lo, uintptr_t hi);

/* The calling thread is exiting (thread.c): its cache goes back to the
   list, for another thread.  */
void mp_foreign_thread_exit (void);

/* How many threads' caches there are, N, and the BYTES they take: one
   for each thread that ran at once (a cache outlives its thread, for
   the next), part of the runtime's own memory (own.c's report).  */
void mp_foreign_memory (size_t *n, size_t *bytes);

/* The totals of the foreign sites: the blocks they allocated (a realloc
   that works makes one, as valgrind's DHAT counts), their bytes, and how
   many sites (callers) allocated any.  */
void mp_foreign_totals (uint64_t *blocks, uint64_t *bytes, uint64_t *callers);

void mp_foreign_fork (enum mp_fork_step step);

#endif
