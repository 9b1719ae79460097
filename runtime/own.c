/* own.c -- the runtime's own memory, and what happens when it runs out.

   Counting needs no memory beyond the thread records and the site table,
   both bounded by MP_MAX_SITES (fewer if the address space runs short:
   sites.c).  Sampling's tables grow with what the program does:
   profile.c's records with its distinct call stacks, tracked.c's entries
   with the sampled blocks it keeps alive.  They are allocated here, and
   bounded by own_limit (MEMPROF): an allocation that
   would pass it, or that malloc refuses, fails, and sampling stops for
   good with one warning (sample.c then sees a rate of 0).  The samples
   taken so far stay in the report, which says that sampling stopped;
   counting goes on, exact, and so does the program.

   The figures are kept with atomics: the tables' allocations happen under
   their own files' locks, which differ.

   Where the memory comes from.  The small blocks, records kept for the
   whole run (profile.c's stacks, tracked.c's slabs of entries), are cut
   from chunks mapped for them, one chunk at a time per thread, so that
   no lock is needed.  From malloc, one by one, they sat among the
   program's own blocks and made its malloc slower: on bt-malloc at
   1e-2, each sample's record cost about 4700 instructions in calloc,
   mostly in consolidating the program's freed blocks, after which the
   program's requests missed the fast bins (about 2000 instructions a
   sample in all).  Larger blocks (tables, which grow and are given
   back) are mapped one by one, for the same reason: a calloc of more than
   malloc's fast bins hold consolidates them first (about 9.5M
   instructions on bt-malloc 16 for one of them).  */

#include <stdlib.h>
#include <signal.h>
#include <sys/mman.h>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif
#include "internal.h"
#include "timeline.h"
#include "own.h"
#include "generations.h"
#include "config.h"
#include "sample.h"
#include "foreign.h"

static _Atomic size_t in_use, peak;   /* bytes in the sampling tables */
static atomic_int exhausted;          /* 1 once sampling has stopped */
static _Atomic double stopped_at;     /* mp_uptime () then */

/* Stop sampling, once, saying why.  */
static void
exhaust (const char *why, size_t n)
{
  if (atomic_exchange (&exhausted, 1))
    return;
  atomic_store (&stopped_at, mp_uptime ());
  /* Without stdio: a thread holding stderr's lock may be sampled, and
     its sample hold mp_profile_lock here.  */
  mp_warn_raw ("%s for %zu more bytes of sampling tables (%zu in use); "
               "sampling stops, counting goes on", why, n,
               atomic_load (&in_use));
  mp_sample_prompt ();          /* every thread sees the rate of 0 */
}

/* Blocks of at most SMALL bytes are small (see above); chunks are CHUNK
   bytes.  */
#define SMALL 4096
#define CHUNK ((size_t) 256 << 10)
#define HUGE_PAGE ((size_t) 2 << 20)

/* This thread's chunk: the free bytes from `cut' to `chunk_end'.  A
   chunk is never unmapped: what a thread leaves in it at its exit is
   lost (the address space of a chunk, most of it never touched).  */
static __thread char *cut __attribute__ ((tls_model ("initial-exec")));
static __thread char *chunk_end __attribute__ ((tls_model ("initial-exec")));

/* 1 while this thread cuts from its chunk: a signal handler's sample
   then takes malloc's memory, not the bytes being cut.  */
static __thread volatile sig_atomic_t cutting
  __attribute__ ((tls_model ("initial-exec")));

/* See own.h.  */
void *
mp_own_map (size_t n)
{
  char *c = mmap (NULL, n, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (c == MAP_FAILED)
    return NULL;
#ifdef __SANITIZE_ADDRESS__
  /* The blocks in it may hold pointers to malloc's (tracked.c's entries,
     to the next in a chain): LeakSanitizer looks into malloc's blocks
     and roots alone.  */
  __lsan_register_root_region (c, n);
#endif
  return c;
}

/* See own.h.  */
void
mp_own_unmap (void *p, size_t n)
{
  if (p == NULL)
    return;
#ifdef __SANITIZE_ADDRESS__
  __lsan_unregister_root_region (p, n);
#endif
  munmap (p, n);
}

/* N zeroed bytes, N <= SMALL, or NULL.  */
static void *
small (size_t n)
{
  if (cutting)
    return calloc (1, n);
  cutting = 1;
  atomic_signal_fence (memory_order_seq_cst);
  n = (n + 15) & ~(size_t) 15;
  char *p = NULL;
  if ((size_t) (chunk_end - cut) < n)
    {
      char *c = mp_own_map (CHUNK);
      if (c != NULL)
        {
          cut = c;
          chunk_end = c + CHUNK;
        }
    }
  if ((size_t) (chunk_end - cut) >= n)
    {
      p = cut;
      cut += n;
    }
  atomic_signal_fence (memory_order_seq_cst);
  cutting = 0;
  return p;
}

/* N zeroed bytes mapped for a sampling table, or NULL.  Past a huge
   page, the kernel is asked for huge pages: the tables are read at
   random places (profile.c's index and records), where 4 kB pages cost
   a TLB miss and a page walk each, and they are written fresh, a page
   fault each 4 kB (bt-malloc at 1e-2: 64 MB of records).  */
static void *
table_map (size_t n)
{
  void *p = mp_own_map (n);
#ifdef MADV_HUGEPAGE
  if (p != NULL && n >= HUGE_PAGE)
    madvise (p, n, MADV_HUGEPAGE);
#endif
  return p;
}

/* N zeroed bytes for a sampling table, or NULL, and sampling stops.
   Small blocks (N <= SMALL) are kept for the run: mp_own_free only
   uncounts them.  */
void *
mp_own_alloc (size_t n)
{
  size_t was = atomic_fetch_add (&in_use, n);
  if (was + n > mp_config.own_limit || was + n < was)
    {
      atomic_fetch_sub (&in_use, n);
      exhaust ("own_limit reached", n);
      return NULL;
    }
  void *p = n <= SMALL ? small (n) : table_map (n);
  if (p == NULL)
    {
      atomic_fetch_sub (&in_use, n);
      exhaust ("out of memory", n);
      return NULL;
    }
  size_t top = atomic_load (&peak);
  while (was + n > top && !atomic_compare_exchange_weak (&peak, &top, was + n))
    ;
  return p;
}

/* Free P, N bytes from mp_own_alloc.  */
void
mp_own_free (void *p, size_t n)
{
  if (p == NULL)
    return;
  if (n > SMALL)
    mp_own_unmap (p, n);
  atomic_fetch_sub (&in_use, n);
}

int
mp_own_exhausted (void)
{
  return atomic_load_explicit (&exhausted, memory_order_relaxed);
}

void
mp_own_report (FILE *out)
{
  fprintf (out, "== memprof's own memory ==\n");
  fprintf (out, "sampling tables: %zu bytes (peak %zu, own_limit %lu)\n",
           atomic_load (&in_use), atomic_load (&peak), mp_config.own_limit);
  size_t records, bytes;
  unsigned room;
  mp_sites_memory (&records, &bytes, &room);
  fprintf (out, "counters: %zu bytes in %zu thread records\n", bytes, records);
  mp_foreign_memory (&records, &bytes);
  fprintf (out, "foreign-site caches: %zu bytes in %zu thread caches\n",
           bytes, records);
  if (room < MP_MAX_SITES - MP_RECORD_SLOTS)
    fprintf (out, "counters: address space short, room for %u sites; "
             "the sites past them are counted as <unknown>\n", room);
  if (mp_get_counter (&mp_young_unlogged) > 0)
    fprintf (out, "young-block logs out of memory: %ld blocks (%ld words) "
             "not logged, not counted as promoted\n",
             (long) mp_get_counter (&mp_young_unlogged),
             (long) mp_get_counter (&mp_young_unlogged_words));
  if (mp_own_exhausted ())
    fprintf (out, "sampling stopped at %.3f s for want of memory: the "
             "profiles hold the samples taken before\n",
             atomic_load (&stopped_at));
  if (mp_tracked_lost () > 0)
    fprintf (out, "frees in signal handlers not seen for want of memory: "
             "%ld sampled blocks stay live in the profiles\n",
             mp_tracked_lost ());
}
