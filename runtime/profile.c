/* profile.c -- the report's own sampling: every sample, whatever tracker
   the program installs, added up by call stack for the report's two
   "top call stacks" sections.

   Design.  Sampling runs from the start at MEMPROF's sampling_rate
   (sample.c).  Each sample comes here with the return addresses of its
   call stack; equal stacks share one record, found through `table`.  A
   record holds estimates in bytes: allocated, live now, and promoted.  A
   block of n_samples sampled at rate r stands for n_samples / r words,
   an unbiased estimate of its size; weighing each sample by the rate at
   the time it fell keeps the sums unbiased when mp_memprof_start changes
   the rate.  tracked.c follows the block, whether or not the program's
   tracker keeps it, and reports its promotion and its death here.  At
   rate 1 every estimate is exact.

   Everything here is under `lock`.  Records are never freed: their
   number is bounded by the distinct call stacks sampled.  */

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct mp_profile_stack
{
  struct mp_profile_stack *next;  /* hash chain */
  uint64_t hash;
  double allocated, live, promoted, young;  /* estimated bytes */
  uint64_t samples;
  size_t n_ras;
  uintptr_t ras[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mp_profile_stack **table;
static size_t table_size, n_stacks;

static uint64_t
hash_ras (const uintptr_t *ras, size_t n)
{
  uint64_t h = n;
  for (size_t i = 0; i < n; i++)
    h = (h ^ ras[i]) * UINT64_C (0x9e3779b97f4a7c15);
  return h ^ (h >> 29);
}

/* Double the table; on failure it keeps its size and its chains grow.  */
static void
grow (void)
{
  size_t size = table_size ? 2 * table_size : 1024;
  struct mp_profile_stack **t = calloc (size, sizeof *t);
  if (t == NULL)
    return;
  for (size_t i = 0; i < table_size; i++)
    for (struct mp_profile_stack *s = table[i], *next; s; s = next)
      {
        next = s->next;
        s->next = t[s->hash % size];
        t[s->hash % size] = s;
      }
  free (table);
  table = t;
  table_size = size;
}

static struct mp_profile_stack *
find_or_add (const uintptr_t *ras, size_t n)
{
  uint64_t h = hash_ras (ras, n);
  if (n_stacks >= table_size)
    grow ();
  if (table_size == 0)
    return NULL;
  struct mp_profile_stack **head = &table[h % table_size];
  for (struct mp_profile_stack *s = *head; s; s = s->next)
    if (s->hash == h && s->n_ras == n
        && memcmp (s->ras, ras, n * sizeof *ras) == 0)
      return s;
  struct mp_profile_stack *s = calloc (1, sizeof *s + n * sizeof *ras);
  if (s == NULL)
    return NULL;
  s->hash = h;
  s->n_ras = n;
  memcpy (s->ras, ras, n * sizeof *ras);
  s->next = *head;
  *head = s;
  n_stacks++;
  return s;
}

struct mp_profile_stack *
mp_profile_alloc (const uintptr_t *ras, size_t n_ras, double bytes, int young)
{
  pthread_mutex_lock (&lock);
  struct mp_profile_stack *s = find_or_add (ras, n_ras);
  if (s)
    {
      s->allocated += bytes;
      s->live += bytes;
      s->young += young ? bytes : 0;
      s->samples++;
    }
  pthread_mutex_unlock (&lock);
  return s;
}

void
mp_profile_promote (struct mp_profile_stack *s, double bytes)
{
  pthread_mutex_lock (&lock);
  s->promoted += bytes;
  pthread_mutex_unlock (&lock);
}

void
mp_profile_dead (struct mp_profile_stack *s, double bytes)
{
  pthread_mutex_lock (&lock);
  s->live -= bytes;
  pthread_mutex_unlock (&lock);
}

/* ---- the report ------------------------------------------------------- */

static int
by_allocated (const void *a, const void *b)
{
  const struct mp_profile_stack *x = *(const struct mp_profile_stack *const *) a;
  const struct mp_profile_stack *y = *(const struct mp_profile_stack *const *) b;
  return (x->allocated < y->allocated) - (x->allocated > y->allocated);
}

static int
by_live (const void *a, const void *b)
{
  const struct mp_profile_stack *x = *(const struct mp_profile_stack *const *) a;
  const struct mp_profile_stack *y = *(const struct mp_profile_stack *const *) b;
  return (x->live < y->live) - (x->live > y->live);
}

static void
print_stack (FILE *out, const struct mp_profile_stack *s, double bytes)
{
  fprintf (out, "%.0f bytes, %" PRIu64 " samples, ", bytes, s->samples);
  if (s->young > 0)
    fprintf (out, "%.1f%% promoted\n", 100 * s->promoted / s->young);
  else
    fprintf (out, "not young\n");
  mp_callstack cs = { s->ras, s->n_ras, mp_config.callstack_size, NULL, 0 };
  struct mp_frame f;
  for (size_t i = 0; mp_callstack_frame (&cs, i, &f) == 0; i++)
    {
      fprintf (out, "    %s", f.function);
      if (f.file)
        fprintf (out, " at %s:%u", f.file, f.line);
      fputs (f.inlined ? " (inlined)\n" : "\n", out);
    }
  mp_callstack_release (&cs);
}

/* The two sections, each with the TOP largest stacks; nothing when no
   sample fell.  */
void
mp_profile_report (FILE *out, size_t top)
{
  pthread_mutex_lock (&lock);
  struct mp_profile_stack **all = n_stacks ? malloc (n_stacks * sizeof *all)
                                           : NULL;
  size_t n = 0;
  for (size_t i = 0; all && i < table_size; i++)
    for (struct mp_profile_stack *s = table[i]; s; s = s->next)
      all[n++] = s;
  size_t shown = top && top < n ? top : n;
  for (int section = 0; section < 2; section++)
    {
      qsort (all, n, sizeof *all, section ? by_live : by_allocated);
      fprintf (out, "== call stacks by estimated bytes %s: %zu of %zu ==\n",
               section ? "live" : "allocated", shown, n);
      for (size_t i = 0; i < shown; i++)
        print_stack (out, all[i], section ? all[i]->live : all[i]->allocated);
    }
  pthread_mutex_unlock (&lock);
  free (all);
}
