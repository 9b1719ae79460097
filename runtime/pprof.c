/* pprof.c -- the report's profile as pprof's profile.proto, gzipped
   (MEMPROF=pprof=PATH), for `go tool pprof', pprof and speedscope.

   The message (github.com/google/pprof, proto/profile.proto) is encoded
   here by hand: it needs only varints, length-delimited fields and
   packed repeated varints, and a library would add a code generator for
   that.  zlib gzips it, loaded only then (dynlibs.h).

   What goes where:
   - sample_type: alloc_objects/count, alloc_space/bytes,
     inuse_objects/count, inuse_space/bytes; each Sample's values are the
     profile record's estimates, already scaled up from the samples (so
     pprof shows them as they are), rounded.  period_type space/bytes and
     period, the mean bytes between samples (8 / rate), say how they were
     sampled: at the rate every sample was taken at, which may be the
     program's (mp_memprof_start), not MEMPROF's; 0, unknown, when they
     were taken at several.  A Sample's label `kind' is its blocks' kind,
     its numeric label sampling_period (bytes) the period of its samples,
     or two, the shortest and the longest.
   - Location: one per distinct return address, with the mapping it
     falls in; its Lines are the address's frames, innermost first: the
     inlined functions, then the function they were inlined into, as
     pprof expects.
   - Function: one per distinct (name, file) pair.
   - Mapping: one per loaded object (dl_iterate_phdr), its executable
     segment, with its path and GNU build ID.
   Strings are interned in string_table, whose entry 0 is "".  */

#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "dynlibs.h"
#include "internal.h"
#include "timeline.h"
#include "config.h"
#include "output.h"
#include "profile.h"
#include "index.h"
#include "locations.h"
#include "space.h"

/* A growing byte buffer; `failed' once memory ran out.  */
struct buf
{
  unsigned char *p;
  size_t n, cap;
  int failed;
};

static void
put (struct buf *b, const void *data, size_t n)
{
  if (b->failed)
    return;
  if (b->n + n > b->cap)
    {
      size_t cap = b->cap ? 2 * b->cap : 4096;
      while (cap < b->n + n)
        cap *= 2;
      unsigned char *p = realloc (b->p, cap);
      if (p == NULL)
        {
          b->failed = 1;
          return;
        }
      b->p = p;
      b->cap = cap;
    }
  memcpy (b->p + b->n, data, n);
  b->n += n;
}

static void
varint (struct buf *b, uint64_t v)
{
  unsigned char bytes[10];
  size_t n = 0;
  do
    {
      bytes[n++] = (unsigned char) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      v >>= 7;
    }
  while (v);
  put (b, bytes, n);
}

enum { VARINT = 0, BYTES = 2 };

static void
key (struct buf *b, int field, int wire)
{
  varint (b, (uint64_t) field << 3 | (uint64_t) wire);
}

/* A varint field; proto3 leaves out zeros.  */
static void
field_varint (struct buf *b, int field, uint64_t v)
{
  if (v == 0)
    return;
  key (b, field, VARINT);
  varint (b, v);
}

static void
field_bytes (struct buf *b, int field, const void *data, size_t n)
{
  key (b, field, BYTES);
  varint (b, n);
  put (b, data, n);
}

/* SUB as field FIELD of B, and SUB emptied for reuse.  */
static void
field_message (struct buf *b, int field, struct buf *sub)
{
  field_bytes (b, field, sub->p, sub->n);
  b->failed |= sub->failed;
  sub->n = 0;
}

/* ---- the string table and the functions ---------------------------------- */

struct pprof
{
  struct buf out, msg, sub, packed;   /* the Profile; scratch messages */
  const char **strings;
  size_t n_strings, cap_strings;
  struct mp_index string_index;
  const char *sought;
  struct { uint64_t name, file; } *functions;
  size_t n_functions, cap_functions;
  struct mp_index function_index;
  uint64_t sought_name, sought_file;
};

static int
same_string (size_t item, void *ctx)
{
  struct pprof *p = ctx;
  return strcmp (p->strings[item], p->sought) == 0;
}

/* The index of S in the string table, added if new (0 for NULL, or
   without memory, which marks the output failed).  */
static uint64_t
string_id (struct pprof *p, const char *s)
{
  if (s == NULL)
    return 0;
  uint64_t h = mp_hash_string (s);
  p->sought = s;
  size_t *slot = mp_index_find (&p->string_index, h, same_string, p);
  if (slot && *slot)
    return *slot - 1;
  if (slot == NULL
      || mp_reserve (&p->strings, &p->cap_strings, p->n_strings, sizeof *p->strings)
      || mp_index_add (&p->string_index, slot, h))
    {
      p->out.failed = 1;
      return 0;
    }
  p->strings[p->n_strings] = s;
  return p->n_strings++;
}

static int
same_function (size_t item, void *ctx)
{
  struct pprof *p = ctx;
  return p->functions[item].name == p->sought_name
         && p->functions[item].file == p->sought_file;
}

/* The id (from 1) of the Function of F's name and file.  */
static uint64_t
function_id (struct pprof *p, const struct mp_frame *f)
{
  uint64_t name = string_id (p, f->function), file = string_id (p, f->file);
  uint64_t h = (name * UINT64_C (0x9e3779b97f4a7c15)) ^ file;
  p->sought_name = name;
  p->sought_file = file;
  size_t *slot = mp_index_find (&p->function_index, h, same_function, p);
  if (slot && *slot)
    return *slot;
  if (slot == NULL
      || mp_reserve (&p->functions, &p->cap_functions, p->n_functions,
                  sizeof *p->functions)
      || mp_index_add (&p->function_index, slot, h))
    {
      p->out.failed = 1;
      return 0;
    }
  p->functions[p->n_functions].name = name;
  p->functions[p->n_functions].file = file;
  return ++p->n_functions;
}

/* ---- the messages ------------------------------------------------------ */

static void
value_type (struct pprof *p, int field, const char *type, const char *unit)
{
  field_varint (&p->sub, 1, string_id (p, type));
  field_varint (&p->sub, 2, string_id (p, unit));
  field_message (&p->out, field, &p->sub);
}

static uint64_t
rounded (double v)
{
  return v > 0.5 ? (uint64_t) (v + 0.5) : 0;
}

/* The mean bytes between samples at RATE; 0 for none.  */
static uint64_t
period (double rate)
{
  return rate > 0 ? rounded (sizeof (void *) / rate) : 0;
}

static void
sample (struct pprof *p, const struct mp_profile_row *r,
        struct mp_locations *t)
{
  for (size_t k = 0; k < r->n_ras; k++)
    varint (&p->packed, mp_location_of (t, r->ras[k]) + 1);
  field_message (&p->msg, 1, &p->packed);
  const double values[4] = { r->v.allocated.count, r->v.allocated.data,
                             r->v.live_count, r->v.live };
  for (int i = 0; i < 4; i++)
    varint (&p->packed, rounded (values[i]));
  field_message (&p->msg, 2, &p->packed);
  field_varint (&p->sub, 1, string_id (p, "kind"));
  field_varint (&p->sub, 2, string_id (p, mp_source_name (r->source)));
  field_message (&p->msg, 3, &p->sub);
  for (int end = 0; end < 1 + (r->rate_max != r->rate_min); end++)
    {
      field_varint (&p->sub, 1, string_id (p, "sampling_period"));
      field_varint (&p->sub, 3, period (end ? r->rate_min : r->rate_max));
      field_varint (&p->sub, 4, string_id (p, "bytes"));
      field_message (&p->msg, 3, &p->sub);
    }
  field_message (&p->out, 2, &p->msg);
}

/* The mappings: collected by dl_iterate_phdr, then written.  */
struct mapping
{
  uintptr_t start, limit, offset;
  char *file, *build_id;        /* malloc'ed; build_id in hex, or NULL */
};

struct mappings
{
  struct mapping *m;
  size_t n, cap;
};

/* The GNU build ID among the notes of INFO's segment PH, in hex.  */
static char *
build_id (const struct dl_phdr_info *info, const ElfW (Phdr) *ph)
{
  const unsigned char *p = (const unsigned char *) (info->dlpi_addr + ph->p_vaddr);
  const unsigned char *end = p + ph->p_memsz;
  while (p + sizeof (ElfW (Nhdr)) <= end)
    {
      const ElfW (Nhdr) *note = (const ElfW (Nhdr) *) p;
      const unsigned char *name = p + sizeof *note;
      const unsigned char *desc = name + ((note->n_namesz + 3) & ~3u);
      if (desc + note->n_descsz > end)
        break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4
          && note->n_descsz > 0
          && memcmp (name, "GNU", 4) == 0)
        {
          char *hex = malloc (2 * note->n_descsz + 1);
          for (size_t i = 0; hex && i < note->n_descsz; i++)
            sprintf (hex + 2 * i, "%02x", desc[i]);   /* ends it too */
          return hex;
        }
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  return NULL;
}

static char *
object_path (const struct dl_phdr_info *info)
{
  if (info->dlpi_name && info->dlpi_name[0])
    return mp_strdup (info->dlpi_name);
  char path[4096];
  ssize_t n = readlink ("/proc/self/exe", path, sizeof path - 1);
  path[n > 0 ? n : 0] = '\0';
  return mp_strdup (path);
}

static int
add_mapping (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  struct mappings *ms = data;
  const ElfW (Phdr) *exec = NULL;
  char *id = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && exec == NULL)
        exec = ph;
      if (ph->p_type == PT_NOTE && id == NULL)
        id = build_id (info, ph);
    }
  if (exec == NULL || mp_reserve (&ms->m, &ms->cap, ms->n, sizeof *ms->m) != 0)
    {
      free (id);
      return exec == NULL ? 0 : 1;
    }
  uintptr_t start = info->dlpi_addr + exec->p_vaddr;
  ms->m[ms->n++] = (struct mapping) { start, start + exec->p_memsz,
                                      exec->p_offset, object_path (info), id };
  return 0;
}

/* The id (from 1) of the mapping holding RA, or 0.  */
static uint64_t
mapping_of (const struct mappings *ms, uintptr_t ra)
{
  for (size_t i = 0; i < ms->n; i++)
    if (ra - 1 >= ms->m[i].start && ra - 1 < ms->m[i].limit)
      return i + 1;
  return 0;
}

static void
write_mappings (struct pprof *p, const struct mappings *ms)
{
  for (size_t i = 0; i < ms->n; i++)
    {
      const struct mapping *m = &ms->m[i];
      field_varint (&p->msg, 1, i + 1);
      field_varint (&p->msg, 2, m->start);
      field_varint (&p->msg, 3, m->limit);
      field_varint (&p->msg, 4, m->offset);
      field_varint (&p->msg, 5, string_id (p, m->file));
      field_varint (&p->msg, 6, string_id (p, m->build_id));
      for (int f = 7; f <= 10; f++)   /* has functions, file names, lines,
                                         inline frames */
        field_varint (&p->msg, f, 1);
      field_message (&p->out, 3, &p->msg);
    }
}

static void
write_locations (struct pprof *p, const struct mp_locations *t,
                 const struct mappings *ms)
{
  for (size_t i = 0; i < t->n; i++)
    {
      const struct mp_location *l = &t->locs[i];
      field_varint (&p->msg, 1, i + 1);
      field_varint (&p->msg, 2, mapping_of (ms, l->ra));
      field_varint (&p->msg, 3, l->ra);
      for (size_t f = 0; f < l->n_frames; f++)
        {
          field_varint (&p->sub, 1, function_id (p, &l->frames[f]));
          field_varint (&p->sub, 2, l->frames[f].line);
          field_message (&p->msg, 4, &p->sub);
        }
      field_message (&p->out, 4, &p->msg);
    }
}

static void
write_functions (struct pprof *p)
{
  for (size_t i = 0; i < p->n_functions; i++)
    {
      field_varint (&p->msg, 1, i + 1);
      field_varint (&p->msg, 2, p->functions[i].name);
      field_varint (&p->msg, 3, p->functions[i].name);
      field_varint (&p->msg, 4, p->functions[i].file);
      field_message (&p->out, 5, &p->msg);
    }
}

/* The rest of the Profile after the samples: mappings, locations,
   functions, strings, and the scalars; the samples were taken at rates
   MIN to MAX.  */
static void
write_tables (struct pprof *p, const struct mp_locations *t, double min,
              double max)
{
  struct mappings ms = { NULL, 0, 0 };
  dl_iterate_phdr (add_mapping, &ms);
  write_mappings (p, &ms);
  write_locations (p, t, &ms);
  write_functions (p);
  struct timespec now;
  clock_gettime (CLOCK_REALTIME, &now);
  char comment[80];
  if (min == max)
    snprintf (comment, sizeof comment, "memprof: sampling rate %g", min);
  else
    snprintf (comment, sizeof comment, "memprof: sampling rates %g to %g",
              min, max);
  uint64_t ids[] = { string_id (p, "space"), string_id (p, "bytes"),
                     string_id (p, comment), string_id (p, "inuse_space") };
  for (size_t i = 0; i < p->n_strings; i++)
    field_bytes (&p->out, 6, p->strings[i], strlen (p->strings[i]));
  field_varint (&p->out, 9, (uint64_t) now.tv_sec * 1000000000u
                            + (uint64_t) now.tv_nsec);
  field_varint (&p->out, 10, (uint64_t) (mp_uptime () * 1e9));
  field_varint (&p->sub, 1, ids[0]);
  field_varint (&p->sub, 2, ids[1]);
  field_message (&p->out, 11, &p->sub);
  field_varint (&p->out, 12, min == max ? period (min) : 0);
  field_varint (&p->out, 13, ids[2]);
  field_varint (&p->out, 14, ids[3]);
  for (size_t i = 0; i < ms.n; i++)
    {
      free (ms.m[i].file);
      free (ms.m[i].build_id);
    }
  free (ms.m);
}

/* Gzip N bytes at DATA to OUT; -1 if zlib fails, or cannot be loaded
   (after a warning).  At the fastest level, as Go's runtime/pprof does:
   a profile is written at exit, read once, and compresses well
   anyway.  */
static int
gzip_to (FILE *out, const unsigned char *data, size_t n)
{
  const char *why;
  if (mp_z_load (&why) != 0)
    {
      mp_warn ("cannot load zlib (%s) to write the pprof profile", why);
      return -1;
    }
  z_stream z;
  memset (&z, 0, sizeof z);
  if (mp_z.deflateInit2_ (&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
                          Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                          (int) sizeof z) != Z_OK)
    return -1;
  z.next_in = (unsigned char *) data;
  z.avail_in = (uInt) n;      /* profiles stay far below 4 GiB */
  unsigned char chunk[65536];
  int rc;
  do
    {
      z.next_out = chunk;
      z.avail_out = sizeof chunk;
      rc = mp_z.deflate (&z, Z_FINISH);
      fwrite (chunk, 1, sizeof chunk - z.avail_out, out);
    }
  while (rc == Z_OK);
  mp_z.deflateEnd (&z);
  return rc == Z_STREAM_END ? 0 : -1;
}

static void
free_pprof (struct pprof *p)
{
  free (p->out.p);
  free (p->msg.p);
  free (p->sub.p);
  free (p->packed.p);
  free (p->strings);
  free (p->functions);
  mp_index_free (&p->string_index);
  mp_index_free (&p->function_index);
}

int
mp_write_pprof (FILE *out)
{
  static const char *const types[4][2] = {
    { "alloc_objects", "count" }, { "alloc_space", "bytes" },
    { "inuse_objects", "count" }, { "inuse_space", "bytes" }
  };
  double min, max;
  size_t n;
  mp_tracked_deliver (mp_self ());      /* deaths found, not yet told */
  struct mp_profile_row *rows = mp_profile_rows (&n, &min, &max);
  if (max == 0)
    min = max = mp_config.sampling_rate;        /* no sample yet */
  struct pprof p;
  memset (&p, 0, sizeof p);
  struct mp_locations t = { 0 };
  string_id (&p, "");
  for (int i = 0; i < 4; i++)
    value_type (&p, 1, types[i][0], types[i][1]);
  for (size_t i = 0; rows && !p.out.failed && i < n; i++)
    for (size_t k = 0; k < rows[i].n_ras && !p.out.failed; k++)
      p.out.failed = mp_location_of (&t, rows[i].ras[k]) == MP_NO_LOCATION;
  for (size_t i = 0; rows && !p.out.failed && i < n; i++)
    sample (&p, &rows[i], &t);
  if (!p.out.failed)
    write_tables (&p, &t, min, max);
  int rc = rows == NULL || p.out.failed ? -1 : gzip_to (out, p.out.p, p.out.n);
  mp_profile_rows_free (rows, n);
  mp_locations_free (&t);
  free_pprof (&p);
  return rc;
}
