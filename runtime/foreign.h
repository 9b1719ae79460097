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
   sets of two entries, the one used last first, found by a
   multiplicative hash of RA.  A program's busy calls of malloc and
   free, unrolled and inlined, are some tens of return addresses: three
   of forty share one of 512 sets (and slow every call of theirs) in
   one program in thirty; of 64 sets, in most.  16 KiB a thread.  */
#define MP_FOREIGN_SET_BITS 9
#define MP_FOREIGN_CACHE (2 << MP_FOREIGN_SET_BITS)
struct mp_foreign_entry
{
  const void *ra;
  const struct mp_site *site;
};
extern __thread struct mp_foreign_entry mp_foreign_cache[MP_FOREIGN_CACHE]
  __attribute__ ((tls_model ("initial-exec")));

/* The set of RA: its two entries.  */
static inline struct mp_foreign_entry *
mp_foreign_set (const void *ra)
{
  return &mp_foreign_cache[2 * (((uintptr_t) ra
                                 * UINT64_C (0x9e3779b97f4a7c15))
                                >> (64 - MP_FOREIGN_SET_BITS))];
}

/* The site of RA if the thread's cache has it, else NULL.  */
static inline const struct mp_site *
mp_foreign_cached (const void *ra)
{
  struct mp_foreign_entry *e = mp_foreign_set (ra);
  if (MP_LIKELY (e[0].ra == ra))
    return e[0].site;
  if (MP_LIKELY (e[1].ra == ra))
    return e[1].site;
  return NULL;
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

/* The totals of the foreign sites: the blocks they allocated (a realloc
   that works makes one, as valgrind's DHAT counts), their bytes, and how
   many sites (callers) allocated any.  */
void mp_foreign_totals (uint64_t *blocks, uint64_t *bytes, uint64_t *callers);

void mp_foreign_fork (enum mp_fork_step step);

#endif
