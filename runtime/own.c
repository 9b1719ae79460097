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
   their own files' locks, which differ.  */

#include <stdlib.h>
#include "internal.h"
#include "generations.h"
#include "config.h"
#include "sample.h"

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
  mp_warn ("%s for %zu more bytes of sampling tables (%zu in use); "
           "sampling stops, counting goes on", why, n, atomic_load (&in_use));
  mp_sample_prompt ();          /* every thread sees the rate of 0 */
}

/* N zeroed bytes for a sampling table, or NULL, and sampling stops.  */
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
  void *p = calloc (1, n);
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
  free (p);
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
}
