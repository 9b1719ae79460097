/* profile.c -- the report's own sampling: every sample, whatever tracker
   the program installs, added up by call stack and kind for the report's
   "top call stacks" sections, its space profiles (space.c) and its
   machine-readable forms (pprof.c, json.c, folded.c).

   Design.  Sampling runs from the start at MEMPROF's sampling_rate
   (sample.c).  Each sample comes here with the return addresses of its
   call stack and the kind (enum mp_source) of its block; equal stacks of
   one kind share one record, found through `table`.  A record holds
   estimates (struct mp_profile_values): what was allocated, what is
   live now, what was promoted and what survived collections, by age.
   A block of W words with n samples at rate r stands for n / (r W)
   blocks like it, an unbiased estimate; weighing each sample by the rate
   at the time it fell keeps the sums unbiased when mp_memprof_start
   changes the rate.  tracked.c follows the block, whether or not the
   program's tracker keeps it, and reports here each collection it
   survives, its promotion and its death.  At rate 1 every estimate is
   exact.

   Everything here is under mp_profile_lock, which tracked.c's table
   shares: a sample takes it once for the record of its stack and the
   entry of its block, a free once for both too.  A signal handler never
   waits for it in a thread that holds it: the thread is busy
   (thread.h's mp_busy) meanwhile, and the handler's samples are not
   taken, its frees deferred (tracked.c).  It is taken inside the
   collector's lock, and never holds another.  Records are never freed:
   their number is bounded by the distinct call stacks sampled.  */

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "callstack.h"
#include "guest.h"
#include "internal.h"
#include "own.h"
#include "callstack.h"
#include "fork.h"
#include "profile.h"
#include "output.h"
#include "symbols.h"
#include "index.h"

/* What a sample adds to, and a free takes from, in every record.  */
struct hot
{
  double live_count, live;      /* first: all that a free touches */
  struct mp_space_amount allocated;
  uint64_t samples;
  double rate_min, rate_max;    /* the rates its samples were taken at */
};

/* What only GC blocks add to: a record of a GC kind has these after its
   return addresses (cold_of), the others none.  */
struct cold
{
  double young, promoted;
  struct mp_space_amount copies[MP_AGES];
};

/* A record: its header and the values each sample and free touch, at a
   fixed offset, then its key's return addresses, then a GC kind's cold
   values.  A free reads one line, not the header's and then the
   values' past a key of variable length, and a sample its lines in a
   row; a malloc record is 112 bytes smaller without the GC's values
   (bt-malloc at 1e-2: some 250 000 records of twenty-odd frames, their
   cache misses and page faults most of a sample's cost).  */
struct mp_profile_stack
{
  uint32_t n_ras;
  uint16_t source;              /* enum mp_source: with the stack, the key */
  uint16_t named;               /* 1 once mp_profile_rows symbolised its
                                   words: under mp_profile_lock */
  struct hot hot;
  uintptr_t ras[];              /* n_ras of them, then struct cold for a
                                   GC kind */
};

/* A slot of the index: a record and its key's hash (0 for a free slot,
   which no hash is: hash_key never returns 0), so that a probe reads
   only the record it finds.  */
struct slot
{
  uint64_t hash;
  struct mp_profile_stack *stack;
};

pthread_mutex_t mp_profile_lock = PTHREAD_MUTEX_INITIALIZER;

/* The index, open addressing with linear probing, at most half full;
   `n_stacks` records in it.  Guarded by mp_profile_lock.  */
static struct slot *table;
static size_t table_size, n_stacks;   /* table_size: 0 or a power of 2 */
/* `table' and `table_size' - 1, for mp_profile_hash's prefetch without
   the lock: written with them.  A stale pair asks the cache for a line
   in vain, which is all it costs (a prefetch does not fault).  */
static _Atomic (struct slot *) hint_table;
static _Atomic size_t hint_mask;
/* Whether mp_profile_replace has rewritten words: then records may hold
   the same stack (an object loaded and unloaded again where it was), and
   their rows are merged.  Under mp_profile_lock.  */
static int replaced;

/* The megabytes of the address space that the records' return
   addresses are in (an address's REGION_SHIFT high bits, plus 1, since
   0 marks a free slot): a set, open addressing at most half full, that
   each new record adds to.  An object unloaded whose span meets none
   of them has no frame in the profile, which mp_profile_words_in then
   need not scan, however large it is (see unload.c).  `regions_lost'
   once one could not be added: every span may meet one.  Guarded by
   mp_profile_lock.  */
#define REGION_SHIFT 20
static uintptr_t *regions;
static size_t regions_size, n_regions;   /* regions_size: a power of 2 */
static int regions_lost;

/* Whether records of SOURCE have cold values.  */
static int
has_cold (enum mp_source source)
{
  return source != MP_SOURCE_MALLOC && source != MP_SOURCE_CUSTOM;
}

static struct cold *
cold_of (struct mp_profile_stack *s)
{
  return (struct cold *) (s->ras + s->n_ras);
}

/* ---- the records' memory ---------------------------------------------

   Records are cut in the order they come from chunks of the profile's
   own, under mp_profile_lock, and the report walks them in that order,
   through memory in a row: a walk of the index read each at a random
   place (bt-malloc at 1e-2: 250 000 cache misses, twice, at exit).  A
   chunk has twice the bytes of the one before, from CHUNK_FIRST up to
   CHUNK_MAX: a short program's few records take a page, and own_limit
   counts a chunk's unused end too.  */
#define CHUNK_FIRST ((size_t) 4 << 10)
#define CHUNK_MAX ((size_t) 4 << 20)

struct chunk
{
  struct chunk *next;
  size_t used, size;            /* words cut from `words', words there */
  uintptr_t words[];
};

static struct chunk *chunks, *last_chunk;   /* under mp_profile_lock */
static size_t chunk_bytes = CHUNK_FIRST;    /* the next chunk's */

/* The words of a record of N return addresses of SOURCE.  */
static size_t
record_words (size_t n, enum mp_source source)
{
  return (sizeof (struct mp_profile_stack) + n * sizeof (uintptr_t)
          + (has_cold (source) ? sizeof (struct cold) : 0))
         / sizeof (uintptr_t);
}

/* A zeroed record of N return addresses of SOURCE, its header not
   filled; NULL without memory.  */
static struct mp_profile_stack *
record_new (size_t n, enum mp_source source)
{
  size_t need = record_words (n, source);
  struct chunk *c = last_chunk;
  if (c == NULL || c->size - c->used < need)
    {
      size_t bytes = chunk_bytes;
      while ((bytes - sizeof *c) / sizeof (uintptr_t) < need)
        bytes *= 2;
      if ((c = mp_own_alloc (bytes)) == NULL)
        return NULL;
      c->size = (bytes - sizeof *c) / sizeof (uintptr_t);
      *(last_chunk ? &last_chunk->next : &chunks) = c;
      last_chunk = c;
      if (chunk_bytes < CHUNK_MAX)
        chunk_bytes *= 2;
    }
  struct mp_profile_stack *s = (struct mp_profile_stack *) &c->words[c->used];
  c->used += need;
  return s;
}

/* A walk over the records in the order they were made: start it at
   { chunks, 0 }.  */
struct walk
{
  const struct chunk *c;
  size_t at;
};

/* The walk's next record, or NULL after the last.  */
static struct mp_profile_stack *
walk_next (struct walk *w)
{
  while (w->c != NULL && w->at == w->c->used)
    *w = (struct walk) { w->c->next, 0 };
  if (w->c == NULL)
    return NULL;
  struct mp_profile_stack *s = (struct mp_profile_stack *) &w->c->words[w->at];
  w->at += record_words (s->n_ras, s->source);
  return s;
}

/* Four chains of multiplies, each over every fourth word, joined at
   the end: one chain over twenty-odd frames waited for each multiply in
   turn (bt-malloc at 1e-2: some 30 ns a sample).  */
static uint64_t
hash_key (const uintptr_t *ras, size_t n, enum mp_source source)
{
  const uint64_t k = UINT64_C (0x9e3779b97f4a7c15);
  uint64_t a = n ^ ((uint64_t) source << 32), b = 1, c = 2, d = 3;
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    {
      a = (a ^ ras[i]) * k;
      b = (b ^ ras[i + 1]) * k;
      c = (c ^ ras[i + 2]) * k;
      d = (d ^ ras[i + 3]) * k;
    }
  for (; i < n; i++)
    a = (a ^ ras[i]) * k;
  uint64_t h = (((a * k) ^ b) * k ^ c) * k ^ d;
  h ^= h >> 29;
  return h ? h : 1;
}

/* Double the table; on failure it keeps its size, and fills up further
   (find_or_add).  */
static void
grow (void)
{
  size_t size = table_size ? 2 * table_size : 1024;
  struct slot *t = mp_own_alloc (size * sizeof *t);
  if (t == NULL)
    return;
  for (size_t i = 0; i < table_size; i++)
    if (table[i].hash)
      {
        size_t k = table[i].hash & (size - 1);
        while (t[k].hash)
          k = (k + 1) & (size - 1);
        t[k] = table[i];
      }
  mp_own_free (table, table_size * sizeof *table);
  table = t;
  table_size = size;
  atomic_store_explicit (&hint_table, t, memory_order_relaxed);
  atomic_store_explicit (&hint_mask, size - 1, memory_order_relaxed);
}

/* The slot of region R in `regions': R's, or the free one where it
   would go.  */
static uintptr_t *
region_slot (uintptr_t r)
{
  size_t k = (size_t) (r * UINT64_C (0x9e3779b97f4a7c15) >> 32)
             & (regions_size - 1);
  while (regions[k] != 0 && regions[k] != r)
    k = (k + 1) & (regions_size - 1);
  return &regions[k];
}

/* Double `regions'; -1 without memory.  */
static int
grow_regions (void)
{
  uintptr_t *old = regions;
  size_t old_size = regions_size, size = old_size ? 2 * old_size : 64;
  if ((regions = mp_own_alloc (size * sizeof *regions)) == NULL)
    {
      regions = old;
      return -1;
    }
  regions_size = size;
  for (size_t i = 0; i < old_size; i++)
    if (old[i] != 0)
      *region_slot (old[i]) = old[i];
  mp_own_free (old, old_size * sizeof *old);
  return 0;
}

/* Add the regions of the N return addresses RAS.  A stack's next frame
   is mostly in the region of the one before (the same module): it is
   not looked up again.  */
static void
add_regions (const uintptr_t *ras, size_t n)
{
  for (size_t i = 0, last = 0; i < n && !regions_lost; i++)
    {
      uintptr_t r = ((ras[i] - 1) >> REGION_SHIFT) + 1;
      if (r == last || (regions_size != 0 && *region_slot (r) == r))
        {
          last = r;
          continue;
        }
      last = r;
      if (2 * (n_regions + 1) > regions_size && grow_regions () != 0)
        regions_lost = 1;
      else
        {
          *region_slot (r) = r;
          n_regions++;
        }
    }
}

/* Whether some record may have a return address in [LO, HI).  */
static int
meets_regions (uintptr_t lo, uintptr_t hi)
{
  if (regions_lost)
    return 1;
  for (uintptr_t r = lo >> REGION_SHIFT;
       regions_size != 0 && r <= (hi - 1) >> REGION_SHIFT; r++)
    if (*region_slot (r + 1) == r + 1)
      return 1;
  return 0;
}

uint64_t
mp_profile_hash (const uintptr_t *ras, size_t n_ras, enum mp_source source)
{
  uint64_t h = hash_key (ras, n_ras, source);
  struct slot *t = atomic_load_explicit (&hint_table, memory_order_relaxed);
  if (t != NULL)
    __builtin_prefetch (&t[h & atomic_load_explicit (&hint_mask,
                                                     memory_order_relaxed)]);
  return h;
}

/* The record of the stack RAS (N words) of SOURCE, of hash H; a new
   one if none.  */
static struct mp_profile_stack *
find_or_add (const uintptr_t *ras, size_t n, enum mp_source source,
             uint64_t h)
{
  if (2 * (n_stacks + 1) > table_size)
    grow ();
  if (table_size == 0)
    return NULL;
  size_t k = h & (table_size - 1);
  for (; table[k].hash; k = (k + 1) & (table_size - 1))
    {
      struct mp_profile_stack *s = table[k].stack;
      if (table[k].hash == h && s->n_ras == n && s->source == source
          && memcmp (s->ras, ras, n * sizeof *ras) == 0)
        return s;
    }
  if (n_stacks + 2 > table_size)
    return NULL;                /* one slot stays free, to end probes */
  struct mp_profile_stack *s = record_new (n, source);
  if (s == NULL)
    return NULL;
  s->n_ras = (uint32_t) n;
  s->source = source;
  memcpy (s->ras, ras, n * sizeof *ras);
  table[k] = (struct slot) { h, s };
  n_stacks++;
  add_regions (ras, n);
  return s;
}

static void
add_amount (struct mp_space_amount *to, const struct mp_space_amount *a,
            double sign)
{
  to->count += sign * a->count;
  to->data += sign * a->data;
  to->overhead += sign * a->overhead;
}

struct mp_profile_stack *
mp_profile_alloc (const uintptr_t *ras, size_t n_ras,
                  const struct mp_sampled *smp)
{
  struct mp_profile_stack *s = find_or_add (ras, n_ras, smp->source,
                                            smp->hash);
  if (s)
    {
      struct hot *x = &s->hot;
      add_amount (&x->allocated, &smp->est, 1);
      x->live_count += smp->est.count;
      x->live += smp->est.data;
      if (smp->young)
        cold_of (s)->young += smp->est.data;
      x->samples += smp->n_samples;
      if (x->rate_min == 0 || smp->rate < x->rate_min)
        x->rate_min = smp->rate;
      if (smp->rate > x->rate_max)
        x->rate_max = smp->rate;
    }
  return s;
}

void
mp_profile_promote (struct mp_profile_stack *s, double bytes)
{
  cold_of (s)->promoted += bytes;
}

void
mp_profile_survived (struct mp_profile_stack *s, unsigned age,
                     const struct mp_space_amount *est)
{
  add_amount (&cold_of (s)->copies[age < MP_AGES ? age : MP_AGES - 1],
              est, 1);
}

void
mp_profile_dead (struct mp_profile_stack *s, const struct mp_space_amount *est)
{
  s->hot.live_count -= est->count;
  s->hot.live -= est->data;
}

/* The values of record S, as a row shows them.  */
static struct mp_profile_values
values_of (struct mp_profile_stack *s)
{
  const struct hot *x = &s->hot;
  struct mp_profile_values v = { .allocated = x->allocated,
                                 .live_count = x->live_count,
                                 .live = x->live, .samples = x->samples };
  if (has_cold (s->source))
    {
      const struct cold *c = cold_of (s);
      v.young = c->young;
      v.promoted = c->promoted;
      memcpy (v.copies, c->copies, sizeof v.copies);
    }
  return v;
}

/* Show ROW's stack as it is shown (guest.c), if it has guest frames:
   the row then owns a copy.  Without our lock, since symbols may be
   needed.  */
static void
arrange (struct mp_profile_row *row)
{
  uintptr_t *shown;
  if (!mp_guest_in (row->ras, row->n_ras)
      || (shown = malloc (row->n_ras * sizeof *shown)) == NULL)
    return;
  row->n_ras = mp_guest_arrange (row->ras, row->n_ras, shown);
  row->ras = shown;
  row->owned = 1;
}

/* Words a report's stacks repeat: a stack's outer frames are those of
   many others.  A direct-mapped cache: a word not found is looked up
   again, which gives the same answer.  At most NAMED_CACHE slots, and
   no more than twice the words to name, rounded up to a power of two:
   a short program's report has a few dozen, and the cache is cleared
   before each use.  */
#define NAMED_CACHE 4096

static size_t
named_slots (const struct mp_profile_row *rows, size_t n)
{
  size_t words = 0, slots = 16;
  for (size_t i = 0; rows && i < n; i++)
    words += rows[i].named ? 0 : rows[i].n_ras;
  while (slots < 2 * words && slots < NAMED_CACHE)
    slots *= 2;
  return slots;
}

/* Symbolise every address of the N ROWS before any is written: a
   function met among them renames its namesakes met before
   (namesakes.c), and each writer must show one name for one function.
   Each word once, as far as the cache remembers, and a record's words
   once for all calls: symbols.c keeps what it met (a row that owns its
   words, guest frames arranged, has some of its record's).  */
static void
name_frames (const struct mp_profile_row *rows, size_t n)
{
  const struct mp_frame *frames;
  size_t slots = named_slots (rows, n);
  uintptr_t *named = calloc (slots, sizeof *named);
  for (size_t i = 0; rows && i < n; i++)
    for (size_t k = 0; !rows[i].named && k < rows[i].n_ras; k++)
      {
        uintptr_t w = rows[i].ras[k];
        uintptr_t *slot = named ? &named[(w ^ w >> 12) & (slots - 1)] : NULL;
        if (slot && *slot == w && w != 0)
          continue;
        mp_symbolise_one (w, MP_SYMBOLS_NAMES, &frames);
        if (slot)
          *slot = w;
      }
  free (named);
}

static int
by_stack (const void *a, const void *b)
{
  const struct mp_profile_row *x = a, *y = b;
  if (x->source != y->source)
    return x->source < y->source ? -1 : 1;
  if (x->n_ras != y->n_ras)
    return x->n_ras < y->n_ras ? -1 : 1;
  return memcmp (x->ras, y->ras, x->n_ras * sizeof *x->ras);
}

static void
add_values (struct mp_profile_row *to, const struct mp_profile_row *r)
{
  add_amount (&to->v.allocated, &r->v.allocated, 1);
  to->v.live_count += r->v.live_count;
  to->v.live += r->v.live;
  to->v.young += r->v.young;
  to->v.samples += r->v.samples;
  to->v.promoted += r->v.promoted;
  for (int g = 0; g < MP_AGES; g++)
    add_amount (&to->v.copies[g], &r->v.copies[g], 1);
  to->rate_min = r->rate_min < to->rate_min ? r->rate_min : to->rate_min;
  to->rate_max = r->rate_max > to->rate_max ? r->rate_max : to->rate_max;
  to->named &= r->named;
}

/* ROWS[0..N) with the rows of one stack merged into one; how many.  */
static size_t
merge_same (struct mp_profile_row *rows, size_t n)
{
  size_t m = 0;
  qsort (rows, n, sizeof *rows, by_stack);
  for (size_t i = 0; i < n; i++)
    if (m > 0 && by_stack (&rows[m - 1], &rows[i]) == 0)
      add_values (&rows[m - 1], &rows[i]);
    else
      rows[m++] = rows[i];
  return m;
}

struct mp_profile_row *
mp_profile_rows (size_t *n, double *min, double *max)
{
  mp_profile_acquire ();
  struct mp_profile_row *rows = malloc ((n_stacks + 1) * sizeof *rows);
  *n = 0;
  /* The rates of all the samples, from their records' here rather than
     at each sample.  */
  *min = *max = 0;
  struct walk w = { chunks, 0 };
  for (struct mp_profile_stack *s; (s = walk_next (&w)) != NULL;)
    {
      const struct hot *x = &s->hot;
      if (*min == 0 || x->rate_min < *min)
        *min = x->rate_min;
      if (x->rate_max > *max)
        *max = x->rate_max;
      if (rows)
        rows[(*n)++] = (struct mp_profile_row) {
          s->ras, s->n_ras, 0, s->source, values_of (s), x->rate_min,
          x->rate_max, s, s->named };
    }
  int merge = replaced;
  mp_profile_release ();
  if (rows && merge)
    *n = merge_same (rows, *n);
  for (size_t i = 0; rows && i < *n; i++)
    arrange (&rows[i]);
  name_frames (rows, *n);
  mp_profile_acquire ();
  /* A row with guest frames arranged named some of its record's words
     only: another provider may arrange them otherwise next time.  */
  for (size_t i = 0; rows && i < *n; i++)
    if (!rows[i].owned)
      rows[i].stack->named = 1;
  mp_profile_release ();
  return rows;
}

void
mp_profile_rows_free (struct mp_profile_row *rows, size_t n)
{
  for (size_t i = 0; rows && i < n; i++)
    if (rows[i].owned)
      free ((uintptr_t *) rows[i].ras);
  free (rows);
}

/* The words of the profile's stacks that KEEP (W, CTX) accepts,
   repeats included (malloc'ed, *N of them).  */
static uintptr_t *
words_where (int (*keep) (uintptr_t w, const void *ctx), const void *ctx,
             size_t *n)
{
  size_t cap = 0;
  uintptr_t *words = NULL;
  *n = 0;
  mp_profile_acquire ();
  struct walk at = { chunks, 0 };
  for (struct mp_profile_stack *s; (s = walk_next (&at)) != NULL;)
    for (size_t k = 0; k < s->n_ras; k++)
      {
        uintptr_t w = s->ras[k];
        if (keep (w, ctx) && mp_reserve (&words, &cap, *n, sizeof *words) == 0)
          words[(*n)++] = w;
      }
  mp_profile_release ();
  return words;
}

static int
is_guest_frame (uintptr_t w, const void *ctx)
{
  (void) ctx;
  return (w & MP_GUEST_TAG_MASK) == MP_GUEST_FRAME;
}

uintptr_t *
mp_profile_guest_words (size_t *n)
{
  return words_where (is_guest_frame, NULL, n);
}

/* ---- unloading --------------------------------------------------------

   A stack's return addresses into an object that dlclose unloads would
   be named, at report time, after whatever is mapped there then.  So
   its words are named before it goes, and once it is gone become the
   words symbols.c gives for those names (unload.c).  A record changed
   so keeps its slot under its old hash: no capture has its new words,
   so no probe looks for it, and probes pass over it as over any other
   record whose key differs.  */

static int
by_word (const void *a, const void *b)
{
  uintptr_t x = *(const uintptr_t *) a, y = *(const uintptr_t *) b;
  return (x > y) - (x < y);
}

/* Whether return address W is in SPAN, [SPAN[0], SPAN[1]).  */
static int
in_span (uintptr_t w, const void *ctx)
{
  const uintptr_t *span = ctx;
  return w - 1 - span[0] < span[1] - span[0];
}

uintptr_t *
mp_profile_words_in (uintptr_t lo, uintptr_t hi, size_t *n)
{
  const uintptr_t span[2] = { lo, hi };
  mp_profile_acquire ();
  int meets = meets_regions (lo, hi);
  mp_profile_release ();
  *n = 0;
  uintptr_t *words = meets ? words_where (in_span, span, n) : NULL;
  if (*n == 0)
    return words;
  qsort (words, *n, sizeof *words, by_word);
  size_t d = 1;
  for (size_t i = 1; i < *n; i++)
    if (words[i] != words[d - 1])
      words[d++] = words[i];
  *n = d;
  return words;
}

void
mp_profile_replace (const struct mp_word_change *changes, size_t n)
{
  if (n == 0)
    return;
  uintptr_t lo = changes[0].from, hi = changes[n - 1].from;
  mp_profile_acquire ();
  struct walk at = { chunks, 0 };
  for (struct mp_profile_stack *s; (s = walk_next (&at)) != NULL;)
    for (size_t k = 0; k < s->n_ras; k++)
      {
        uintptr_t *w = &s->ras[k];
        size_t c = *w - lo <= hi - lo
                   ? mp_count_at_most (changes, n, sizeof *changes, *w) : 0;
        if (c > 0 && changes[c - 1].from == *w)
          {
            *w = changes[c - 1].to;
            replaced = 1;
          }
      }
  mp_profile_release ();
}

/* ---- the report ------------------------------------------------------- */

int
mp_profile_by_allocated (const void *a, const void *b)
{
  const struct mp_profile_row *x = a, *y = b;
  return (x->v.allocated.data < y->v.allocated.data)
         - (x->v.allocated.data > y->v.allocated.data);
}

static int
by_live (const void *a, const void *b)
{
  const struct mp_profile_row *x = a, *y = b;
  return (x->v.live < y->v.live) - (x->v.live > y->v.live);
}

static void
print_frame (FILE *out, const struct mp_frame *f)
{
  fprintf (out, "    %s", f->function);
  if (f->file)
    fprintf (out, " at %s:%u", f->file, f->line);
  fputs (f->inlined ? " (inlined)\n" : "\n", out);
}

/* Stack S, with what it stands for, BYTES: its frames' positions are
   read for the stacks printed only.  */
static void
print_stack (FILE *out, const struct mp_profile_row *s, double bytes)
{
  fprintf (out, "%.0f bytes, %" PRIu64 " samples, ", mp_shown (bytes),
           s->v.samples);
  if (s->v.young > 0)
    fprintf (out, "%.1f%% promoted\n", 100 * s->v.promoted / s->v.young);
  else
    fprintf (out, "not young\n");
  for (size_t k = 0; k < s->n_ras; k++)
    {
      const struct mp_frame *frames;
      size_t n = mp_symbolise_one (s->ras[k], MP_SYMBOLS_LINES, &frames);
      for (size_t j = 0; j < n; j++)
        print_frame (out, &frames[j]);
    }
}

/* Rows picked one by one, without a sort of them all, up to this many:
   past it, a sort is cheaper.  */
#define PICK_MAX 64

/* Rows X and Y compared in SECTION: by live bytes for section 1, then
   by bytes allocated, then by where their records lie, so that the
   rows picked and the rows sorted come in one order.  */
static int
compare (const struct mp_profile_row *x, const struct mp_profile_row *y,
         int section)
{
  int c = section ? by_live (x, y) : 0;
  if (c == 0)
    c = mp_profile_by_allocated (x, y);
  if (c == 0)
    c = (x->stack > y->stack) - (x->stack < y->stack);
  return c;
}

static int
before (const struct mp_profile_row *x, const struct mp_profile_row *y,
        int section)
{
  return compare (x, y, section) < 0;
}

static int
sort_allocated (const void *a, const void *b)
{
  return compare (a, b, 0);
}

static int
sort_live (const void *a, const void *b)
{
  return compare (a, b, 1);
}

/* The first TOP (<= PICK_MAX) of the N ROWS in SECTION's order into
   BEST, without sorting the rest.  */
static void
pick (const struct mp_profile_row *rows, size_t n, size_t top, int section,
      const struct mp_profile_row **best)
{
  size_t have = 0;
  for (size_t i = 0; i < n; i++)
    {
      const struct mp_profile_row *r = &rows[i];
      if (have == top && (top == 0 || !before (r, best[top - 1], section)))
        continue;
      size_t k = have < top ? have++ : top - 1;
      for (; k > 0 && before (r, best[k - 1], section); k--)
        best[k] = best[k - 1];
      best[k] = r;
    }
}

/* The two sections, each with the TOP largest stacks.  */
void
mp_profile_report (FILE *out, size_t top)
{
  double min, max;
  size_t n;
  struct mp_profile_row *rows = mp_profile_rows (&n, &min, &max);
  if (rows == NULL)
    mp_warn ("out of memory for the report's call stacks");
  size_t shown = top && top < n ? top : n;
  const struct mp_profile_row *best[PICK_MAX];
  for (int section = 0; rows && section < 2; section++)
    {
      if (shown <= PICK_MAX)
        pick (rows, n, shown, section, best);
      else
        qsort (rows, n, sizeof *rows, section ? sort_live : sort_allocated);
      fprintf (out, "== call stacks by estimated bytes %s: %zu of %zu ==\n",
               section ? "live" : "allocated", shown, n);
      for (size_t i = 0; i < shown; i++)
        {
          const struct mp_profile_row *r
            = shown <= PICK_MAX ? best[i] : &rows[i];
          print_stack (out, r, section ? r->v.live : r->v.allocated.data);
        }
    }
  mp_profile_rows_free (rows, n);
}

/* See fork.c.  */
void
mp_profile_fork (enum mp_fork_step step)
{
  mp_fork_mutex (&mp_profile_lock, step);
}
