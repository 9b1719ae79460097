/* json.c -- the report as one JSON object (MEMPROF=json=PATH), in the
   schema that doc/report-json.md documents; output.c also puts it into
   the HTML report.

   Strings are escaped so that any name is safe: the JSON escapes, `<',
   `>' and `&' as \u escapes (the object may sit in an HTML script
   element), and each byte that does not start a valid UTF-8 sequence
   as U+FFFD.  The writer keeps, per nesting level, whether a member was
   written yet, to put the commas.  */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "timeline.h"
#include "config.h"
#include "foreign.h"
#include "interpose.h"
#include "libc.h"
#include "output.h"
#include "report.h"
#include "profile.h"
#include "locations.h"
#include "space.h"
#include "report.h"

#define MAX_DEPTH 16             /* the schema nests 8 deep */

struct json
{
  FILE *out;
  int depth;
  unsigned char first[MAX_DEPTH];  /* nothing written yet at this level */
};

/* The length of the valid UTF-8 sequence at S, or 0 (RFC 3629: no
   overlong forms, no surrogates, nothing past U+10FFFF).  */
static int
utf8_length (const unsigned char *s)
{
  unsigned char c = s[0];
  int n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (c >= 0xf5 || n == 0)
    return 0;
  unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
  unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
  if (s[1] < lo || s[1] > hi)
    return 0;
  for (int i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xbf)
      return 0;
  return n;
}

/* Whether byte C goes into a JSON string as it is.  */
static int
plain (unsigned char c)
{
  return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && c != '<'
         && c != '>' && c != '&';
}

/* V in decimal.  */
static void
put_integer (FILE *out, long long v)
{
  char digits[24], *end = digits + sizeof digits, *p = end;
  unsigned long long u = v < 0 ? -(unsigned long long) v
                               : (unsigned long long) v;
  do
    *--p = (char) ('0' + u % 10);
  while (u /= 10);
  if (v < 0)
    *--p = '-';
  fwrite_unlocked (p, 1, (size_t) (end - p), out);
}

/* The stream is the writer's own, so it is written unlocked; runs of
   plain bytes at once.  */
static void
write_string (FILE *out, const char *text)
{
  if (text == NULL)
    {
      fputs_unlocked ("null", out);
      return;
    }
  putc_unlocked ('"', out);
  const unsigned char *s = (const unsigned char *) text;
  for (;;)
    {
      const unsigned char *run = s;
      while (plain (*s))
        s++;
      fwrite_unlocked (run, 1, (size_t) (s - run), out);
      if (*s == '\0')
        break;
      int n = utf8_length (s);
      if (*s == '"' || *s == '\\')
        fprintf (out, "\\%c", *s);
      else if (*s < 0x80)
        fprintf (out, "\\u%04x", *s);
      else if (n == 0)
        fputs_unlocked ("\\ufffd", out);
      else
        fwrite_unlocked (s, 1, (size_t) n, out);
      s += n ? n : 1;
    }
  putc_unlocked ('"', out);
}

/* Before a value: the comma, and KEY if in an object.  */
static void
member (struct json *j, const char *key)
{
  if (!j->first[j->depth])
    putc_unlocked (',', j->out);
  j->first[j->depth] = 0;
  if (key)
    {
      write_string (j->out, key);
      putc_unlocked (':', j->out);
    }
}

static void
begin (struct json *j, const char *key, char bracket)
{
  member (j, key);
  putc_unlocked (bracket, j->out);
  if (j->depth + 1 < MAX_DEPTH)
    j->first[++j->depth] = 1;
}

static void
end (struct json *j, char bracket)
{
  putc_unlocked (bracket, j->out);
  j->depth--;
}

/* Integers without a fraction; the rounding dust of sums of estimates
   as 0.  */
static void
number (struct json *j, const char *key, double v)
{
  member (j, key);
  if (!isfinite (v) || fabs (v) < 1e-6)
    v = 0;
  if (v == floor (v) && fabs (v) < 1e15)
    put_integer (j->out, (long long) v);
  else
    fprintf (j->out, "%.15g", v);
}

static void
string (struct json *j, const char *key, const char *s)
{
  member (j, key);
  write_string (j->out, s);
}

static void
boolean (struct json *j, const char *key, int v)
{
  member (j, key);
  fputs_unlocked (v ? "true" : "false", j->out);
}

/* The fields of RECORD that TABLE lists, those whose bit is in MASK.  */
static void
fields (struct json *j, const char *key, const struct mp_field *table,
        const void *record, unsigned mask)
{
  begin (j, key, '{');
  for (const struct mp_field *f = table; f->name; f++)
    if (mask & (1u << (f - table)))
      number (j, f->name, mp_field_value (f, record));
  end (j, '}');
}

/* ---- the sections ------------------------------------------------------ */

/* Where the counts came from (report.c's report_not_rewritten).  */
static void
write_not_rewritten (struct json *j)
{
  uint64_t blocks, bytes, callers;
  mp_foreign_totals (&blocks, &bytes, &callers);
  putc_unlocked ('\n', j->out);
  begin (j, "not_rewritten", '{');
  const char *off = mp_interpose_off_reason ();
  boolean (j, "counted", off == NULL);
  if (off != NULL)
    string (j, "reason", off);
  number (j, "blocks", (double) blocks);
  number (j, "bytes", (double) bytes);
  number (j, "callers", (double) callers);
  end (j, '}');
}

static int
write_sites (struct json *j)
{
  struct mp_site_info *sites;
  size_t n;
  if (mp_sites_by_size (&sites, &n) != 0)
    return -1;
  begin (j, "sites", '[');
  for (size_t i = 0; i < n; i++)
    {
      const struct mp_site_info *s = &sites[i];
      putc_unlocked ('\n', j->out);
      begin (j, NULL, '{');
      string (j, "file", s->file);
      number (j, "line", s->line);
      number (j, "column", s->column);
      string (j, "function", s->function);
      string (j, "callee", s->callee);
      begin (j, "inlined", '[');
      for (unsigned k = 0; k < s->n_inlined; k++)
        {
          begin (j, NULL, '{');
          string (j, "function", s->inlined[k].function);
          string (j, "file", s->inlined[k].file);
          number (j, "line", s->inlined[k].line);
          end (j, '}');
        }
      end (j, ']');
      fields (j, "stats", mp_alloc_fields, &s->stats, s->collected);
      number (j, "minor_words", s->minor_words);
      number (j, "major_words", s->major_words);
      boolean (j, "not_rewritten", s->not_rewritten);
      end (j, '}');
    }
  end (j, ']');
  free (sites);
  return 0;
}

static void
amount (struct json *j, const char *key, const struct mp_space_amount *a)
{
  begin (j, key, '{');
  number (j, "count", a->count);
  number (j, "data", a->data);
  number (j, "overhead", a->overhead);
  end (j, '}');
}

static void
totals (struct json *j, const char *key, const struct mp_space_totals *t)
{
  begin (j, key, '{');
  number (j, "allocated", t->allocated);
  number (j, "count", t->count);
  number (j, "overhead", t->overhead);
  number (j, "copied", t->copied);
  begin (j, "copies", '[');
  for (int g = 0; g < MP_AGES; g++)
    number (j, NULL, t->copies[g]);
  end (j, ']');
  number (j, "live", t->live);
  begin (j, "kinds", '{');
  for (int k = 0; k < MP_SOURCES; k++)
    {
      if (t->kinds[k][0].count == 0)
        continue;
      begin (j, mp_source_name ((enum mp_source) k), '{');
      amount (j, "allocated", &t->kinds[k][0]);
      begin (j, "copies", '[');
      for (int g = 0; g < MP_AGES; g++)
        amount (j, NULL, &t->kinds[k][1 + g]);
      end (j, ']');
      end (j, '}');
    }
  end (j, '}');
  end (j, '}');
}

static int
write_functions (struct json *j)
{
  struct mp_space_profile *all;
  size_t n;
  if (mp_space_profiles (&all, &n) != 0)
    return -1;
  begin (j, "functions", '[');
  for (size_t i = 0; i < n; i++)
    {
      putc_unlocked ('\n', j->out);
      begin (j, NULL, '{');
      string (j, "function", all[i].function);
      number (j, "samples", (double) all[i].samples);
      totals (j, "exclusive", &all[i].exclusive);
      totals (j, "inclusive", &all[i].inclusive);
      end (j, '}');
    }
  end (j, ']');
  free (all);
  return 0;
}

static void
write_frames (struct json *j, const struct mp_locations *t)
{
  begin (j, "frames", '[');
  for (size_t i = 0; i < t->n; i++)
    for (size_t k = 0; k < t->locs[i].n_frames; k++)
      {
        const struct mp_frame *f = &t->locs[i].frames[k];
        putc_unlocked ('\n', j->out);
        begin (j, NULL, '{');
        string (j, "function", f->function);
        string (j, "file", f->file);
        number (j, "line", f->line);
        boolean (j, "inlined", f->inlined);
        end (j, '}');
      }
  end (j, ']');
}

static void
write_stack (struct json *j, const struct mp_profile_row *r,
             struct mp_locations *t)
{
  putc_unlocked ('\n', j->out);
  begin (j, NULL, '{');
  begin (j, "frames", '[');
  for (size_t k = 0; k < r->n_ras; k++)
    {
      const struct mp_location *l = &t->locs[mp_location_of (t, r->ras[k])];
      for (size_t f = 0; f < l->n_frames; f++)
        number (j, NULL, (double) (l->first_frame + f));
    }
  end (j, ']');
  string (j, "kind", mp_source_name (r->source));
  number (j, "samples", (double) r->v.samples);
  number (j, "allocated", r->v.allocated.data);
  number (j, "allocated_count", r->v.allocated.count);
  number (j, "live", r->v.live);
  number (j, "live_count", r->v.live_count);
  number (j, "promoted", r->v.promoted);
  end (j, '}');
}

/* The frames, then the stacks that refer to them.  */
static int
write_stacks (struct json *j, struct mp_profile_row *rows, size_t n)
{
  struct mp_locations t = { 0 };
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < rows[i].n_ras; k++)
      if (mp_location_of (&t, rows[i].ras[k]) == MP_NO_LOCATION)
        {
          mp_locations_free (&t);
          return -1;
        }
  write_frames (j, &t);
  qsort (rows, n, sizeof *rows, mp_profile_by_allocated);
  begin (j, "stacks", '[');
  for (size_t i = 0; i < n; i++)
    write_stack (j, &rows[i], &t);
  end (j, ']');
  mp_locations_free (&t);
  return 0;
}

static int
write_timeline (struct json *j)
{
  struct mp_timeline_point *points = malloc (MP_TIMELINE_POINTS
                                             * sizeof *points);
  if (points == NULL)
    return -1;
  size_t n = mp_timeline (points);
  begin (j, "timeline", '[');
  for (size_t i = 0; i < n; i++)
    {
      putc_unlocked ('\n', j->out);
      begin (j, NULL, '{');
      number (j, "t", points[i].t);
      number (j, "heap_words", points[i].heap_words);
      number (j, "live_words", points[i].live_words);
      number (j, "minor_collections", (double) points[i].minor);
      number (j, "major_collections", (double) points[i].major);
      end (j, '}');
    }
  end (j, ']');
  free (points);
  return 0;
}

static void
write_sampling (struct json *j, double min, double max)
{
  begin (j, "sampling", '{');
  number (j, "rate", mp_config.sampling_rate);
  number (j, "rate_min", min);
  number (j, "rate_max", max);
  boolean (j, "exact", min == 1 && max == 1);
  number (j, "callstack_size", (double) mp_config.callstack_size);
  end (j, '}');
}

int
mp_write_json (FILE *out)
{
  struct json j = { out, 0, { 1 } };
  struct mp_stat st;
  struct mp_alloc_stats alloc;
  double min, max;
  size_t n;
  mp_tracked_deliver (mp_self ());      /* deaths found, not yet told */
  struct mp_profile_row *rows = mp_profile_rows (&n, &min, &max);
  if (rows == NULL)
    return -1;
  mp_stat (&st);
  mp_alloc_stats (&alloc);
  begin (&j, NULL, '{');
  number (&j, "memprof", 1);
  number (&j, "pid", (double) getpid ());
  write_sampling (&j, min, max);
  putc_unlocked ('\n', out);
  fields (&j, "stat", mp_stat_fields, &st, ~0u);
  putc_unlocked ('\n', out);
  fields (&j, "allocator", mp_alloc_fields, &alloc,
          mp_alloc_stats_collected ());
  write_not_rewritten (&j);
  int rc = write_sites (&j);
  rc = rc ? rc : write_functions (&j);
  rc = rc ? rc : write_stacks (&j, rows, n);
  rc = rc ? rc : write_timeline (&j);
  end (&j, '}');
  putc_unlocked ('\n', out);
  mp_profile_rows_free (rows, n);
  return rc;
}
