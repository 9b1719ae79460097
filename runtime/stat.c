/* stat.c -- OCaml's Gc.stat and Gc.counters over the runtime's counts.

   Word counts are kept per site and per thread (sites.c); the totals
   here add them up, so they cost a walk over sites and threads: cheap
   for a program, not meant for a hot loop.  */

#include <pthread.h>
#include <string.h>
#include <stddef.h>
#include "internal.h"
#include "sites.h"
#include "guest.h"
#include "generations.h"
#include "collect.h"

#include "gcweak.h"

/* Total minor and major words allocated, over every site but those
   that view again what others count (guest.h).  */
static void
sum_words (int64_t *minor, int64_t *major)
{
  int64_t c[SC_COUNT];
  *minor = *major = 0;
  for (unsigned id = 1, n = mp_site_count (); id <= n; id++)
    {
      if (mp_site_is_view (mp_site_by_number (id)))
        continue;
      mp_site_sum (id, c);
      *minor += c[SC_MINOR_WORDS];
      *major += c[SC_MAJOR_WORDS];
    }
}

MP_API void
mp_counters (double *minor, double *promoted, double *major)
{
  int64_t mi, ma;
  sum_words (&mi, &ma);
  int64_t pr = mp_get_counter (&mp_promoted_words);
  if (minor)
    *minor = (double) mi;
  if (promoted)
    *promoted = (double) pr;
  if (major)
    *major = (double) (ma + pr);
}

MP_API double
mp_minor_words (void)
{
  double minor;
  mp_counters (&minor, NULL, NULL);
  return minor;
}

MP_API double
mp_allocated_bytes (void)
{
  double minor, promoted, major;
  mp_counters (&minor, &promoted, &major);
  return (minor + major - promoted) * sizeof (void *);
}

/* The words of the calling thread's stack in use: from the top of its
   stack (it grows down) to here.  Quiet: pthread_getattr_np reads
   /proc/self/maps in the main thread, through the C library's malloc,
   and reading a statistic must not change the allocator's.  */
static long
stack_words (void)
{
  pthread_attr_t attr;
  void *low;
  size_t size;
  mp_quiet_begin ();
  int ok = pthread_getattr_np (pthread_self (), &attr) == 0;
  if (ok)
    {
      ok = pthread_attr_getstack (&attr, &low, &size) == 0;
      pthread_attr_destroy (&attr);
    }
  mp_quiet_end ();
  if (!ok)
    return 0;
  uintptr_t top = (uintptr_t) low + size;
  uintptr_t here = (uintptr_t) __builtin_frame_address (0);
  return ok && here < top ? (long) ((top - here) / sizeof (void *)) : 0;
}

MP_API void
mp_quick_stat (struct mp_stat *st)
{
  memset (st, 0, sizeof *st);
  mp_counters (&st->minor_words, &st->promoted_words, &st->major_words);
  st->minor_collections = (long) mp_get_counter (&mp_minor_collections);
  st->major_collections = (long) mp_get_counter (&mp_major_collections);
  st->compactions = (long) mp_get_counter (&mp_compactions);
  st->forced_major_collections = (long) mp_get_counter (&mp_forced_majors);
  st->stack_size = stack_words ();
  if (!mp_gc_started ())
    return;
  long heap = (long) (GC_get_heap_size () / sizeof (void *));
  long top = (long) (mp_get_counter (&mp_top_heap_bytes) / sizeof (void *));
  st->heap_words = heap;
  st->heap_chunks = (long) mp_get_counter (&mp_heap_chunks);
  st->top_heap_words = top > heap ? top : heap;
}

MP_API void
mp_stat (struct mp_stat *st)
{
  mp_quick_stat (st);
  if (mp_gc_started ())
    mp_heap_walk (st);
}

/* OCaml's Gc.print_stat layout.  */
MP_API void
mp_print_stat (FILE *out)
{
  struct mp_stat st;
  mp_stat (&st);
  fprintf (out, "minor_collections:      %ld\n", st.minor_collections);
  fprintf (out, "major_collections:      %ld\n", st.major_collections);
  fprintf (out, "compactions:            %ld\n", st.compactions);
  fprintf (out, "forced_major_collections: %ld\n", st.forced_major_collections);
  fprintf (out, "\n");
  int l1 = snprintf (NULL, 0, "%.0f", st.minor_words);
  fprintf (out, "minor_words:    %*.0f\n", l1, st.minor_words);
  fprintf (out, "promoted_words: %*.0f\n", l1, st.promoted_words);
  fprintf (out, "major_words:    %*.0f\n", l1, st.major_words);
  fprintf (out, "\n");
  int l2 = snprintf (NULL, 0, "%ld", st.top_heap_words);
  fprintf (out, "top_heap_words: %*ld\n", l2, st.top_heap_words);
  fprintf (out, "heap_words:     %*ld\n", l2, st.heap_words);
  fprintf (out, "live_words:     %*ld\n", l2, st.live_words);
  fprintf (out, "free_words:     %*ld\n", l2, st.free_words);
  fprintf (out, "largest_free:   %*ld\n", l2, st.largest_free);
  fprintf (out, "fragments:      %*ld\n", l2, st.fragments);
  fprintf (out, "\n");
  fprintf (out, "live_blocks: %ld\n", st.live_blocks);
  fprintf (out, "free_blocks: %ld\n", st.free_blocks);
  fprintf (out, "heap_chunks: %ld\n", st.heap_chunks);
}

/* The stat record's fields; FLAG marks those of OCaml's v=0x400 exit
   lines, in their order.  */
const struct mp_field mp_stat_fields[] = {
#define F(name, type, exit) { #name, offsetof (struct mp_stat, name), type, exit }
  F (minor_words, MP_FIELD_DOUBLE, 1), F (promoted_words, MP_FIELD_DOUBLE, 1),
  F (major_words, MP_FIELD_DOUBLE, 1), F (minor_collections, MP_FIELD_LONG, 1),
  F (major_collections, MP_FIELD_LONG, 1), F (heap_words, MP_FIELD_LONG, 1),
  F (heap_chunks, MP_FIELD_LONG, 1), F (top_heap_words, MP_FIELD_LONG, 1),
  F (live_words, MP_FIELD_LONG, 1), F (live_blocks, MP_FIELD_LONG, 1),
  F (free_words, MP_FIELD_LONG, 1), F (free_blocks, MP_FIELD_LONG, 1),
  F (largest_free, MP_FIELD_LONG, 1), F (fragments, MP_FIELD_LONG, 1),
  F (compactions, MP_FIELD_LONG, 1),
  F (forced_major_collections, MP_FIELD_LONG, 1),
  F (stack_size, MP_FIELD_LONG, 0),
#undef F
  { NULL, 0, 0, 0 }
};

double
mp_field_value (const struct mp_field *f, const void *record)
{
  const char *p = (const char *) record + f->offset;
  switch (f->type)
    {
    case MP_FIELD_DOUBLE:
      return *(const double *) p;
    case MP_FIELD_LONG:
      return (double) *(const long *) p;
    default:
      return (double) *(const int64_t *) p;
    }
}
