/* report.c -- D's allocator statistics and the exit-time report.

   The report is made from a snapshot of the counters: each site's sums
   over all threads, taken once.  Its sections, in order: the stat record
   in OCaml's v=0x400 form, the global allocator statistics in D's
   reportStatistics form, the sites in D's per-call form, largest first,
   the space profiles by function (space.c) and the call stacks of the
   report's sampling (profile.c).  output.c writes it, and the other
   forms, at exit.  */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <inttypes.h>
#include "guest.h"
#include "internal.h"
#include "own.h"
#include "sites.h"
#include "config.h"
#include "stats.h"
#include "report.h"
#include "foreign.h"
#include "interpose.h"
#include "libc.h"
#include "control.h"
#include "profile.h"
#include "generations.h"
#include "space.h"
#include "report.h"

_Static_assert (sizeof (struct mp_inlined) == sizeof (struct mp_inline_frame),
                "memprof.h's mp_inlined mirrors site.h's mp_inline_frame");

/* One site's (or one source line's) counters, summed over threads, and
   the per-call statistics its lines show (stats.c).  */
struct row
{
  const struct mp_site *site;
  int64_t c[SC_COUNT];
  unsigned shown;
};

/* D's per-call statistics, in D's order, with their counters;
   numAllocateOK is computed from the failures.  */
static const struct
{
  unsigned stat;                /* enum mp_stat_index */
  int index;
} per_call[] = {
  { MP_STAT_numAllocate, SC_NUM_ALLOCATE },
  { MP_STAT_numAllocateOK, -1 },
  { MP_STAT_numExpand, SC_NUM_EXPAND },
  { MP_STAT_numExpandOK, SC_NUM_EXPAND_OK },
  { MP_STAT_numReallocate, SC_NUM_REALLOCATE },
  { MP_STAT_numReallocateOK, SC_NUM_REALLOCATE_OK },
  { MP_STAT_numReallocateInPlace, SC_NUM_REALLOCATE_IN_PLACE },
  { MP_STAT_numDeallocate, SC_NUM_DEALLOCATE },
  { MP_STAT_numForeignDeallocate, SC_NUM_FOREIGN_DEALLOCATE },
  { MP_STAT_bytesAllocated, SC_BYTES_ALLOCATED },
  { MP_STAT_bytesExpanded, SC_BYTES_EXPANDED },
  { MP_STAT_bytesContracted, SC_BYTES_CONTRACTED },
  { MP_STAT_bytesMoved, SC_BYTES_MOVED },
  { MP_STAT_bytesNotMoved, SC_BYTES_NOT_MOVED },
};

#define N_PER_CALL (sizeof per_call / sizeof per_call[0])

static int64_t
row_value (const struct row *r, int i)
{
  int index = per_call[i].index;
  if (index < 0)
    return r->c[SC_NUM_ALLOCATE] - r->c[SC_NUM_ALLOCATE_FAILED];
  return r->c[index];
}

/* Every site that has run, with its sums; *N gets the count.  The
   sites of the calls no rewritten site made are named first.  */
static struct row *
snapshot (size_t *n)
{
  mp_foreign_name_all ();
  unsigned count = mp_site_count ();
  struct row *rows = calloc (count + 1, sizeof *rows);
  *n = 0;
  if (rows == NULL)
    {
      mp_warn ("out of memory for the report");
      return NULL;
    }
  for (unsigned id = 1; id <= count; id++)
    {
      struct row *r = &rows[*n];
      r->site = mp_site_by_number (id);
      r->shown = mp_site_shown_per_call (r->site);
      mp_site_sum (id, r->c);
      int64_t any = 0;
      for (int i = 0; i < SC_COUNT; i++)
        any |= r->c[i];
      if (any)
        ++*n;
    }
  return rows;
}

/* D's figures from the counters T.  */
static void
stats_of (const int64_t t[SC_COUNT], struct mp_alloc_stats *s)
{
  s->numAllocate = (uint64_t) t[SC_NUM_ALLOCATE];
  s->numAllocateOK = (uint64_t) (t[SC_NUM_ALLOCATE] - t[SC_NUM_ALLOCATE_FAILED]);
  s->numExpand = (uint64_t) t[SC_NUM_EXPAND];
  s->numExpandOK = (uint64_t) t[SC_NUM_EXPAND_OK];
  s->numReallocate = (uint64_t) t[SC_NUM_REALLOCATE];
  s->numReallocateOK = (uint64_t) t[SC_NUM_REALLOCATE_OK];
  s->numReallocateInPlace = (uint64_t) t[SC_NUM_REALLOCATE_IN_PLACE];
  s->numDeallocate = (uint64_t) t[SC_NUM_DEALLOCATE];
  s->numForeignDeallocate = (uint64_t) t[SC_NUM_FOREIGN_DEALLOCATE];
  s->bytesAllocated = (uint64_t) t[SC_BYTES_ALLOCATED];
  s->bytesExpanded = (uint64_t) t[SC_BYTES_EXPANDED];
  s->bytesContracted = (uint64_t) t[SC_BYTES_CONTRACTED];
  s->bytesMoved = (uint64_t) t[SC_BYTES_MOVED];
  s->bytesNotMoved = (uint64_t) t[SC_BYTES_NOT_MOVED];
}

/* bytesUsed, bytesSlack and bytesHighTide, over the thread records:
   mp_sum_used_apart's FN.  */
static void
sum_used_once (void *arg)
{
  struct mp_alloc_stats *s = arg;
  int64_t used = mp_get_counter (&mp_bytes_used_flushed);
  int64_t tide = atomic_load (&mp_bytes_high_tide);
  int64_t peak = 0;
  s->bytesSlack = 0;
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    {
      used += mp_get_counter (&t->used_delta);
      int64_t p = mp_get_counter (&t->used_peak);
      peak = p > peak ? p : peak;
      s->bytesSlack += mp_get_counter (&t->bytes_slack);
    }
  s->bytesUsed = used;
  int64_t flushed = mp_get_counter (&mp_bytes_used_flushed);
  tide = tide > flushed + peak ? tide : flushed + peak;
  s->bytesHighTide = tide > used ? tide : used;
}

static void
sum_used (struct mp_alloc_stats *s)
{
  mp_sum_used_apart (sum_used_once, s);
}

/* Zero the fields of *S that MASK does not keep: not collected.  */
static void
keep_only (struct mp_alloc_stats *s, unsigned mask)
{
  for (unsigned i = 0; i < MP_STAT_COUNT; i++)
    if (!(mask & (1u << i)))
      memset ((char *) s + mp_alloc_fields[i].offset, 0, sizeof (uint64_t));
}

MP_API void
mp_alloc_stats (struct mp_alloc_stats *out)
{
  int64_t t[SC_COUNT] = { 0 };
  unsigned count = mp_site_count ();
  for (unsigned id = 1; id <= count; id++)
    {
      int64_t c[SC_COUNT];
      if (mp_site_is_view (mp_site_by_number (id)))
        continue;               /* counted at another site too */
      mp_site_sum (id, c);
      for (int j = 0; j < SC_COUNT; j++)
        t[j] += c[j];
    }
  memset (out, 0, sizeof *out);
  stats_of (t, out);
  sum_used (out);
  keep_only (out, mp_alloc_stats_collected ());
}

static void
fill_info (const struct row *r, struct mp_site_info *info)
{
  const struct mp_site *s = r->site;
  memset (info, 0, sizeof *info);
  info->file = s->file;
  info->line = s->line;
  info->column = s->column;
  info->function = s->function;
  info->callee = s->callee;
  info->n_inlined = s->n_inlined;
  info->inlined = (const struct mp_inlined *) s->inlined;
  stats_of (r->c, &info->stats);
  keep_only (&info->stats, r->shown);
  info->collected = r->shown;
  info->minor_words = (double) r->c[SC_MINOR_WORDS];
  info->major_words = (double) r->c[SC_MAJOR_WORDS];
  info->not_rewritten = s->kind == MP_KIND_FOREIGN;
}

MP_API int
mp_site_foreach (int (*fn) (const struct mp_site_info *, void *), void *data)
{
  size_t n;
  struct row *rows = snapshot (&n);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++)
    {
      struct mp_site_info info;
      fill_info (&rows[i], &info);
      rc = fn (&info, data);
    }
  free (rows);
  return rc;
}

/* D's global statistics, in D's order (site.h's MP_SITE_STATS, so that
   field I is statistic I); PER_CALL marks those it also keeps per
   call.  */
const struct mp_field mp_alloc_fields[] = {
#define F(name, per_call) \
  { #name, offsetof (struct mp_alloc_stats, name), MP_FIELD_INT64, per_call },
  MP_SITE_STATS (F)
#undef F
  { NULL, 0, 0, 0 }
};

MP_API void
mp_report_statistics (FILE *out)
{
  struct mp_alloc_stats s;
  mp_alloc_stats (&s);
  unsigned shown = mp_alloc_stats_collected ();
  for (const struct mp_field *f = mp_alloc_fields; f->name; f++)
    if (shown & (1u << (f - mp_alloc_fields)))
      fprintf (out, "%s:%.0f\n", f->name, mp_field_value (f, &s));
}

/* `file.c(655): [numAllocate:21, numAllocateOK:21, bytesAllocated:324202]` */
static void
print_per_call (FILE *out, const char *file, unsigned line, const struct row *r)
{
  const char *sep = "";
  fprintf (out, "%s(%u): [", file, line);
  for (size_t i = 0; i < N_PER_CALL; i++)
    {
      int64_t v = row_value (r, (int) i);
      if (v == 0 || !(r->shown & (1u << per_call[i].stat)))
        continue;
      fprintf (out, "%s%s:%lld", sep, mp_stat_name (per_call[i].stat),
               (long long) v);
      sep = ", ";
    }
  fputc (']', out);
}

static int
by_place (const void *a, const void *b)
{
  const struct row *x = a, *y = b;
  int f = strcmp (x->site->file, y->site->file);
  if (f)
    return f;
  return (x->site->line > y->site->line) - (x->site->line < y->site->line);
}

/* Largest first: by bytes allocated, then calls, then place.  */
static int
by_size (const void *a, const void *b)
{
  const struct row *x = a, *y = b;
  for (int i = 0; i < 2; i++)
    {
      int k = i == 0 ? SC_BYTES_ALLOCATED : SC_NUM_ALLOCATE;
      if (x->c[k] != y->c[k])
        return x->c[k] > y->c[k] ? -1 : 1;
    }
  return by_place (a, b);
}

static int
compare_strings (const char *a, const char *b)
{
  return strcmp (a ? a : "", b ? b : "");
}

/* Order by everything that identifies a site in the source: GCC may copy
   a call (unrolling, inlining the same function twice into one place),
   and the copies are one site to the reader.  */
static int
by_identity (const void *a, const void *b)
{
  const struct mp_site *x = ((const struct row *) a)->site;
  const struct mp_site *y = ((const struct row *) b)->site;
  int d = by_place (a, b);
  if (d == 0)
    d = (x->column > y->column) - (x->column < y->column);
  if (d == 0)
    d = compare_strings (x->callee, y->callee);
  if (d == 0)
    d = compare_strings (x->function, y->function);
  if (d == 0)
    d = (x->n_inlined > y->n_inlined) - (x->n_inlined < y->n_inlined);
  for (unsigned i = 0; d == 0 && i < x->n_inlined; i++)
    {
      d = compare_strings (x->inlined[i].function, y->inlined[i].function);
      if (d == 0)
        d = compare_strings (x->inlined[i].file, y->inlined[i].file);
      if (d == 0)
        d = (x->inlined[i].line > y->inlined[i].line)
            - (x->inlined[i].line < y->inlined[i].line);
    }
  return d;
}

/* Merge the rows that COMPARE finds equal, adding up their counters.  */
static size_t
merge_rows (struct row *rows, size_t n,
            int (*compare) (const void *, const void *))
{
  size_t m = 0;
  qsort (rows, n, sizeof *rows, compare);
  for (size_t i = 0; i < n; i++)
    {
      if (m > 0 && compare (&rows[m - 1], &rows[i]) == 0)
        {
          for (int j = 0; j < SC_COUNT; j++)
            rows[m - 1].c[j] += rows[i].c[j];
          rows[m - 1].shown &= rows[i].shown;   /* a sum of all or none */
        }
      else
        rows[m++] = rows[i];
    }
  return m;
}

/* Keep the N ROWS that have per-call statistics to show; how many.  */
static size_t
with_per_call (struct row *rows, size_t n)
{
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (rows[i].shown)
      rows[m++] = rows[i];
  return m;
}

MP_API void
mp_report_per_call_statistics (FILE *out)
{
  size_t n;
  struct row *rows = snapshot (&n);
  /* D keys per-call statistics by file and line.  */
  n = with_per_call (rows, merge_rows (rows, n, by_place));
  qsort (rows, n, sizeof *rows, by_size);
  for (size_t i = 0; i < n; i++)
    {
      print_per_call (out, rows[i].site->file, rows[i].site->line, &rows[i]);
      fputc ('\n', out);
    }
  free (rows);
}

/* Every site that ran, one per place in the source, largest first, into
   *INFOS (malloc'ed); 0, or -1 without memory.  */
int
mp_sites_by_size (struct mp_site_info **infos, size_t *n)
{
  struct row *rows = snapshot (n);
  if (rows == NULL)
    return -1;
  *n = merge_rows (rows, *n, by_identity);
  qsort (rows, *n, sizeof *rows, by_size);
  *infos = malloc ((*n + 1) * sizeof **infos);
  for (size_t i = 0; *infos && i < *n; i++)
    fill_info (&rows[i], &(*infos)[i]);
  free (rows);
  return *infos ? 0 : -1;
}

/* After a site's D line: what was called, where, and the inline chain.  */
static void
print_site_origin (FILE *out, const struct mp_site *s)
{
  fprintf (out, "  %s%s in %s", s->callee,
           s->kind == MP_KIND_FOREIGN ? " (not rewritten)" : "", s->function);
  for (unsigned i = 0; i < s->n_inlined; i++)
    fprintf (out, "%s%s at %s:%u", i ? ", " : " (inlined: ",
             s->inlined[i].function, s->inlined[i].file, s->inlined[i].line);
  if (s->n_inlined)
    fputc (')', out);
}

static void
report_sites (FILE *out)
{
  size_t n;
  struct row *rows = snapshot (&n);
  size_t ran = merge_rows (rows, n, by_identity);
  n = with_per_call (rows, ran);
  size_t shown = mp_config.sites && mp_config.sites < n ? mp_config.sites : n;
  qsort (rows, n, sizeof *rows, by_size);
  if (n == 0 && ran > 0)
    fprintf (out, "== allocation sites: no per-call statistics collected ==\n");
  else
    fprintf (out, "== allocation sites: %zu of %zu, largest first ==\n", shown,
             n);
  for (size_t i = 0; i < shown; i++)
    {
      print_per_call (out, rows[i].site->file, rows[i].site->line, &rows[i]);
      print_site_origin (out, rows[i].site);
      fputc ('\n', out);
    }
  free (rows);
}

/* Where the counts came from: how many were calls no rewritten site
   made, which the runtime's own malloc family caught (interpose.c).  */
static void
report_not_rewritten (FILE *out)
{
  uint64_t blocks, bytes, callers;
  const char *off = mp_interpose_off_reason ();
  if (off != NULL)
    {
      fprintf (out, "not rewritten: not counted (%s)\n", off);
      return;
    }
  mp_foreign_totals (&blocks, &bytes, &callers);
  fprintf (out, "not rewritten: %" PRIu64 " blocks, %" PRIu64 " bytes, from %"
           PRIu64 " callers\n", blocks, bytes, callers);
}

/* The stat record as OCaml prints it at exit under v=0x400; a program
   that never used the GC heap, and whose record is all zeros, gets one
   line that says so.  */
static void
report_stat (FILE *out)
{
  if (!mp_gc_started ())
    {
      fprintf (out, "== stat record (v=0x400): the program never used "
               "the GC heap ==\n");
      return;
    }
  struct mp_stat st;
  mp_stat (&st);
  fprintf (out, "== stat record (v=0x400) ==\n");
  fprintf (out, "allocated_words: %.0f\n",
           st.minor_words + st.major_words - st.promoted_words);
  for (const struct mp_field *f = mp_stat_fields; f->name; f++)
    if (f->flag)
      fprintf (out, "%s: %.0f\n", f->name, mp_field_value (f, &st));
}

MP_API void
mp_report (FILE *out)
{
  mp_quiet_begin ();            /* qsort's, libdw's: not counted */
  unsigned sections = mp_config.sections;
  fprintf (out, "==== memprof report, pid %ld ====\n", (long) getpid ());
  if ((sections & MP_SECTION_STAT)
      && (atomic_load (&mp_verbose) & MP_VERBOSE_EXIT_STAT))
    report_stat (out);
  if (sections & MP_SECTION_ALLOC)
    {
      fprintf (out, "== allocator statistics ==\n");
      if (mp_alloc_stats_collected () == 0)
        fprintf (out, "no statistics collected\n");
      mp_report_statistics (out);
      report_not_rewritten (out);
      mp_own_report (out);
    }
  if (sections & MP_SECTION_SITES)
    report_sites (out);
  mp_tracked_deliver (mp_self ());  /* deaths found but not yet told */
  if ((sections & MP_SECTION_FUNCTIONS) && mp_config.sampling_rate > 0)
    mp_space_report (out, mp_config.functions);
  if ((sections & MP_SECTION_STACKS) && mp_config.sampling_rate > 0)
    mp_profile_report (out, mp_config.stacks);
  fprintf (out, "==== end of memprof report ====\n");
  fflush (out);
  mp_quiet_end ();
}
