/* space.c -- MLWorks' space profiles: the report's profile (profile.c)
   added up by function, exclusive and inclusive (memprof.h explains the
   figures and the model of copies).

   Design.  A profile record is a call stack of return addresses and a
   kind.  Symbolised (symbols.c) by name alone, no position being
   needed, an address gives one or more frames, inlined ones first.  The
   record's figures go to the innermost frame's function as exclusive
   figures, and to each distinct function of all its frames as inclusive
   ones; `stamp` makes "distinct" cheap: a
   function counted for record i has stamp i + 1.  Functions are told
   apart by name (index.c finds them).  Nothing here is global: each call
   builds its own table from a snapshot of the profile.  */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "callstack.h"
#include "internal.h"
#include "output.h"
#include "symbols.h"
#include "profile.h"
#include "index.h"
#include "space.h"
#include "sample.h"

struct function
{
  struct mp_space_profile p;
  size_t stamp;                 /* 1 + the last record counted inclusive */
};

struct functions
{
  struct function *fns;
  size_t n, cap;
  struct mp_index index;        /* by name */
  const char *sought;           /* the name `same' compares with */
  const char *last;             /* the name last found, at fns[last_at]: a
                                   stack names one function again and again
                                   (recursion), with one pointer */
  size_t last_at;
};

static int
same (size_t item, void *ctx)
{
  struct functions *t = ctx;
  return strcmp (t->fns[item].p.function, t->sought) == 0;
}

/* NAME's entry, found by the index or made; NULL without memory.  */
static struct function *
find_new (struct functions *t, const char *name)
{
  uint64_t h = mp_hash_string (name);
  t->sought = name;
  size_t *slot = mp_index_find (&t->index, h, same, t);
  if (slot == NULL)
    return NULL;
  if (*slot)
    return &t->fns[*slot - 1];
  if (mp_reserve (&t->fns, &t->cap, t->n, sizeof *t->fns) != 0)
    return NULL;
  if (mp_index_add (&t->index, slot, h) != 0)
    return NULL;
  struct function *f = &t->fns[t->n++];
  memset (f, 0, sizeof *f);
  f->p.function = name;
  return f;
}

/* NAME's entry, made if new; NULL without memory.  */
static struct function *
find (struct functions *t, const char *name)
{
  if (t->last != NULL && name == t->last)
    return &t->fns[t->last_at];
  struct function *f = find_new (t, name);
  if (f != NULL)
    {
      t->last = name;
      t->last_at = (size_t) (f - t->fns);
    }
  return f;
}

static void
add_amount (struct mp_space_amount *to, const struct mp_space_amount *a)
{
  to->count += a->count;
  to->data += a->data;
  to->overhead += a->overhead;
}

static void
add_totals (struct mp_space_totals *t, const struct mp_profile_row *r)
{
  const struct mp_profile_values *v = &r->v;
  t->allocated += v->allocated.data;
  t->count += v->allocated.count;
  t->overhead += v->allocated.overhead;
  t->live += v->live;
  add_amount (&t->kinds[r->source][0], &v->allocated);
  for (int g = 0; g < MP_AGES; g++)
    {
      t->copies[g] += v->copies[g].data;
      t->copied += v->copies[g].data;
      add_amount (&t->kinds[r->source][1 + g], &v->copies[g]);
    }
}

/* Count record R, the I-th, in T, by the names of its frames (the
   truncation mark names none); -1 without memory.  */
static int
add_row (struct functions *t, const struct mp_profile_row *r, size_t i)
{
  for (size_t k = 0; k < r->n_ras; k++)
    {
      const struct mp_frame *frames;
      size_t n = r->ras[k] == MP_STACK_TRUNCATED ? 0
                 : mp_symbolise_one (r->ras[k], MP_SYMBOLS_NAMES, &frames);
      for (size_t j = 0; j < n; j++)
        {
          struct function *f = find (t, frames[j].function);
          if (f == NULL)
            return -1;
          if (k == 0 && j == 0)
            {
              add_totals (&f->p.exclusive, r);
              f->p.samples += r->v.samples;
            }
          if (f->stamp != i + 1)
            add_totals (&f->p.inclusive, r);
          f->stamp = i + 1;
        }
    }
  return 0;
}

static int
by_size (const void *a, const void *b)
{
  const struct mp_space_profile *x = a, *y = b;
  if (x->exclusive.allocated != y->exclusive.allocated)
    return x->exclusive.allocated > y->exclusive.allocated ? -1 : 1;
  if (x->inclusive.allocated != y->inclusive.allocated)
    return x->inclusive.allocated > y->inclusive.allocated ? -1 : 1;
  return strcmp (x->function, y->function);
}

int
mp_space_profiles (struct mp_space_profile **all, size_t *n)
{
  double min, max;
  size_t n_rows;
  struct mp_profile_row *rows = mp_profile_rows (&n_rows, &min, &max);
  struct functions t = { NULL, 0, 0, { NULL, NULL, 0, 0, 0 }, NULL, NULL, 0 };
  int ok = rows != NULL;
  for (size_t i = 0; ok && i < n_rows; i++)
    ok = add_row (&t, &rows[i], i) == 0;
  mp_profile_rows_free (rows, n_rows);
  mp_index_free (&t.index);
  *all = NULL;
  *n = 0;
  if (!ok || t.n == 0)
    {
      free (t.fns);
      return ok ? 0 : -1;
    }
  /* Pack the profiles down in place.  */
  struct mp_space_profile *out = (struct mp_space_profile *) t.fns;
  for (size_t i = 0; i < t.n; i++)
    {
      memmove (&out[i], &t.fns[i].p, sizeof *out);
      out[i].rate_min = min;
      out[i].rate_max = max;
    }
  qsort (out, t.n, sizeof *out, by_size);
  *all = out;
  *n = t.n;
  return 0;
}

MP_API int
mp_space_profile_foreach (int (*fn) (const struct mp_space_profile *, void *),
                          void *data)
{
  size_t n;
  struct mp_space_profile *all;
  if (fn == NULL)
    {
      errno = EINVAL;
      return -1;
    }
  mp_tracked_deliver (mp_self ());      /* deaths found, not yet told */
  mp_quiet_begin ();            /* qsort's: not counted */
  int failed = mp_space_profiles (&all, &n) != 0;
  mp_quiet_end ();
  if (failed)
    {
      errno = ENOMEM;
      return -1;
    }
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = fn (&all[i], data);
  free (all);
  return rc;
}

/* ---- the report's section ---------------------------------------------- */

static const char *const kind_names[MP_SOURCES] = {
  "normal", "atomic", "uncollectable", "malloc", "custom"
};

const char *
mp_source_name (enum mp_source source)
{
  return (unsigned) source < MP_SOURCES ? kind_names[source] : "?";
}

/* The promoted fraction is what was copied at age 0, the blocks' first
   survival, of what was allocated.  */
static void
print_totals (FILE *out, const char *what, const struct mp_space_totals *t)
{
  fprintf (out, "  %s: allocated %.0f B in %.0f blocks + %.0f B overhead; "
           "copied %.0f B (ages 0/1/2/3+: %.0f/%.0f/%.0f/%.0f); live %.0f B; "
           "promoted %.1f%%\n",
           what, t->allocated, t->count, t->overhead, t->copied,
           t->copies[0], t->copies[1], t->copies[2], t->copies[3],
           mp_shown (t->live),
           t->allocated > 0 ? 100 * t->copies[0] / t->allocated : 0);
}

/* One line per kind allocated: blocks, data + overhead, allocated and
   copied at each age.  */
static void
print_kinds (FILE *out, const struct mp_space_totals *t)
{
  for (int k = 0; k < MP_SOURCES; k++)
    {
      const struct mp_space_amount *a = t->kinds[k];
      if (a[0].count == 0)
        continue;
      fprintf (out, "    %s:", kind_names[k]);
      for (int g = 0; g <= MP_AGES; g++)
        fprintf (out, "%s %.0f blocks %.0f+%.0f B",
                 g == 0 ? " allocated" : g == 1 ? "; copies" : " |",
                 a[g].count, a[g].data, a[g].overhead);
      fputc ('\n', out);
    }
}

/* How the figures were obtained, as the section's header says it: the
   rates the samples were taken at, or with no sample, the rate in
   effect.  */
static void
print_rates (FILE *out, double min, double max)
{
  if (min == 1 && max == 1)
    fprintf (out, "exact: sampling rate 1");
  else if (min == max)
    fprintf (out, "estimates at sampling rate %g", min);
  else
    fprintf (out, "estimates at sampling rates %g to %g", min, max);
}

void
mp_space_report (FILE *out, size_t top)
{
  size_t n;
  struct mp_space_profile *all;
  if (mp_space_profiles (&all, &n) != 0)
    mp_warn ("out of memory for the space profiles");
  size_t shown = top && top < n ? top : n;
  double rate = mp_sample_rate ();
  fprintf (out, "== space profiles by function (");
  print_rates (out, n ? all[0].rate_min : rate, n ? all[0].rate_max : rate);
  fprintf (out, "): %zu of %zu, largest first ==\n", shown, n);
  for (size_t i = 0; i < shown; i++)
    {
      fprintf (out, "%s:", all[i].function);
      if (all[i].samples)
        fprintf (out, " %llu samples", (unsigned long long) all[i].samples);
      fputc ('\n', out);
      if (all[i].samples)
        {
          print_totals (out, "exclusive", &all[i].exclusive);
          print_kinds (out, &all[i].exclusive);
        }
      print_totals (out, "inclusive", &all[i].inclusive);
    }
  free (all);
}
