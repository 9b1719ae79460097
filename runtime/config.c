/* config.c -- the MEMPROF environment variable (memprof.h documents
   every key).

   MEMPROF is a comma-separated list of KEY=VALUE items, as
   OCAMLRUNPARAM.  The report and sampling keys fill struct mp_config;
   the collector's keys are the fields of the control record, found in
   fields.c and checked by the preset function the caller gives
   (control.c's).  A bad item gets one warning line naming it; the other
   items still apply and the program runs on.

   Also here: the `%p' in MEMPROF's paths (mp_config_path), for output.c,
   and the settings of a process that must not read MEMPROF at all
   (mp_config_secure), for init.c.  */

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "config.h"
#include "stats-choice.h"

struct mp_config mp_config = {
  .report_path = NULL, .sites = 20, .functions = 10, .sampling_rate = 1e-4,
  .callstack_size = 64, .stacks = 5, .sections = MP_SECTIONS_ALL,
  .init_heap_words = 0, .own_limit = 256ul << 20, .interpose = 1,
  .stats = MP_STATS_EVERY, .per_call = MP_STATS_PER_CALL,
};

void
mp_config_secure (struct mp_config *cfg)
{
  static char none[] = "";      /* report=none; never freed */
  cfg->report_path = none;
  cfg->sampling_rate = 0;
}

void
mp_config_settle (struct mp_config *cfg)
{
  int report = !(cfg->report_path && cfg->report_path[0] == '\0')
               && (cfg->sections & (MP_SECTION_FUNCTIONS | MP_SECTION_STACKS));
  if (!cfg->sampling_rate_given && !report && !cfg->pprof_path
      && !cfg->folded_path && !cfg->json_path && !cfg->html_path)
    cfg->sampling_rate = 0;
}

/* The longest value a number may be written with.  */
#define NUMBER_MAX 64

/* Whether C is a decimal digit, whatever the locale.  */
static int
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* Parse VALUE, LEN bytes, as an unsigned number, with an optional k, M
   or G multiplier, into *OUT.  It must start with a digit: strtoul
   would skip any white space and negate after a `-'.  */
static int
parse_number (const char *value, size_t len, unsigned long *out)
{
  char buf[NUMBER_MAX + 1];
  if (len == 0 || len > NUMBER_MAX || !is_digit (value[0]))
    return -1;
  memcpy (buf, value, len);
  buf[len] = '\0';
  char *end;
  errno = 0;
  unsigned long v = strtoul (buf, &end, 0);
  if (errno != 0 || end == buf)
    return -1;
  int shift = 0;
  switch (*end)
    {
    case 'k': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    default: break;
    }
  if (*end != '\0' || v > (ULONG_MAX >> shift))
    return -1;
  *out = v << shift;
  return 0;
}

/* Parse a number of at most MAX.  */
static int
parse_bounded (const char *value, size_t len, unsigned long max,
               unsigned long *out)
{
  unsigned long v;
  if (parse_number (value, len, &v) != 0 || v > max)
    return -1;
  *out = v;
  return 0;
}

/* Parse a probability: a decimal number from 0 to 1, starting with a
   digit or a `.', as numbers do (and not `-0', ` 1' or `nan').  */
static int
parse_rate (const char *value, size_t len, double *out)
{
  char buf[NUMBER_MAX + 1];
  if (len == 0 || len > NUMBER_MAX
      || !(is_digit (value[0]) || value[0] == '.'))
    return -1;
  memcpy (buf, value, len);
  buf[len] = '\0';
  char *end;
  errno = 0;
  double v = strtod (buf, &end);
  if (errno != 0 || end == buf || *end != '\0' || !(v >= 0 && v <= 1))
    return -1;
  *out = v;
  return 0;
}

/* A path: REPORT's `stderr' and `none' are NULL and "".  */
static int
set_path (char **path, const char *value, size_t len, int report)
{
  if (len == 0)
    return -1;
  char *copy = mp_strndup (value, len);
  if (copy == NULL)
    return -1;
  free (*path);
  *path = copy;
  if (report && strcmp (copy, "none") == 0)
    copy[0] = '\0';
  if (report && strcmp (copy, "stderr") == 0)
    {
      free (copy);
      *path = NULL;
    }
  return 0;
}

static const struct { const char *name; unsigned bits; } section_names[] = {
  { "stat", MP_SECTION_STAT }, { "alloc", MP_SECTION_ALLOC },
  { "sites", MP_SECTION_SITES }, { "functions", MP_SECTION_FUNCTIONS },
  { "stacks", MP_SECTION_STACKS }, { "all", MP_SECTIONS_ALL }, { "none", 0 },
};

static int
name_is (const char *name, const char *key, size_t klen)
{
  return name && klen == strlen (name) && memcmp (key, name, klen) == 0;
}

/* The bits of the section called NAME, LEN bytes, or -1.  */
static long
section_bits (const char *name, size_t len)
{
  for (size_t i = 0; i < sizeof section_names / sizeof section_names[0]; i++)
    if (name_is (section_names[i].name, name, len))
      return section_names[i].bits;
  return -1;
}

/* Parse a `+'-separated list of section names.  The `+' are looked for
   in VALUE only: a search to the end of MEMPROF for each item made a
   long MEMPROF take quadratic time.  */
static int
set_sections (unsigned *sections, const char *value, size_t len)
{
  unsigned bits = 0;
  const char *end = value + len;
  for (;;)
    {
      const char *plus = memchr (value, '+', (size_t) (end - value));
      long b = section_bits (value, (size_t) ((plus ? plus : end) - value));
      if (b < 0)
        return -1;
      bits |= (unsigned) b;
      if (plus == NULL)
        break;
      value = plus + 1;
    }
  *sections = bits;
  return 0;
}

static const char *const vm_frames_names[] = { "interleave", "instead", "off" };

/* One of vm_frames' values.  */
static int
set_vm_frames (unsigned *mode, const char *value, size_t len)
{
  for (unsigned i = 0; i < sizeof vm_frames_names / sizeof *vm_frames_names;
       i++)
    if (name_is (vm_frames_names[i], value, len))
      {
        *mode = i;
        return 0;
      }
  return -1;
}

/* Print TEXT, LEN bytes, into a warning readably: at most 64
   characters, and no control character that would break the line.  */
static const char *
shown (const char *text, size_t len, char buf[72])
{
  size_t n = len > 64 ? 64 : len;
  for (size_t i = 0; i < n; i++)
    buf[i] = (unsigned char) text[i] < 0x20 || text[i] == 0x7f ? '?' : text[i];
  strcpy (buf + n, len > n ? "..." : "");
  return buf;
}

/* A list of statistics (stats-choice.h), global or PER_CALL, joined by
   `+'; a bad one is told through WARN, with the word at fault, and -3
   returned.  */
static int
set_stats (unsigned *kept, const char *key, size_t klen, const char *value,
           size_t len, int per_call, mp_warn_fn *warn)
{
  const char *item;
  size_t item_len;
  char a[72], b[72];
  int e = mp_stats_parse (value, len, "+", per_call, kept, &item, &item_len);
  if (e != MP_STATS_OK)
    warn ("MEMPROF: %s '%s' in '%s' (ignored)", mp_stats_error_text (e),
          shown (item, item_len, a), shown (key, klen, b));
  return e == MP_STATS_OK ? 0 : -3;
}

/* A field of the control record, for PRESET.  */
static int
set_control (int field, const char *value, size_t len, mp_preset_fn *preset)
{
  unsigned long v;
  if (parse_bounded (value, len, LONG_MAX, &v) != 0)
    return -1;
  return preset (field, (long) v);
}

/* The keys of struct mp_config, each with the field it sets.  */
enum key_type
{
  REPORT_PATH, OUTPUT_PATH, SECTIONS, NUMBER, RATE, VM_FRAMES, STATS,
  PER_CALL_STATS
};

static const struct
{
  const char *name, *letter;
  enum key_type type;
  size_t offset;
  unsigned long max;            /* NUMBER's largest value */
} keys[] = {
#define AT(field) offsetof (struct mp_config, field)
  { "report", NULL, REPORT_PATH, AT (report_path), 0 },
  { "pprof", NULL, OUTPUT_PATH, AT (pprof_path), 0 },
  { "folded", NULL, OUTPUT_PATH, AT (folded_path), 0 },
  { "json", NULL, OUTPUT_PATH, AT (json_path), 0 },
  { "html", NULL, OUTPUT_PATH, AT (html_path), 0 },
  { "sections", NULL, SECTIONS, AT (sections), 0 },
  { "sites", NULL, NUMBER, AT (sites), ULONG_MAX },
  { "functions", NULL, NUMBER, AT (functions), ULONG_MAX },
  { "stacks", NULL, NUMBER, AT (stacks), ULONG_MAX },
  { "sampling_rate", NULL, RATE, AT (sampling_rate), 0 },
  { "callstack_size", NULL, NUMBER, AT (callstack_size), MP_MAX_CALLSTACK },
  { "past_main", NULL, NUMBER, AT (past_main), 1 },
  { "own_limit", NULL, NUMBER, AT (own_limit), ULONG_MAX },
  { "init_heap_size", "h", NUMBER, AT (init_heap_words), UINT64_C (1) << 40 },
  { "vm_frames", NULL, VM_FRAMES, AT (vm_frames), 0 },
  { "stats", NULL, STATS, AT (stats), 0 },
  { "per_call", NULL, PER_CALL_STATS, AT (per_call), 0 },
  { "eventlog", NULL, OUTPUT_PATH, AT (eventlog_path), 0 },
  { "eventlog_paused", NULL, NUMBER, AT (eventlog_paused), 1 },
  { "interpose", NULL, NUMBER, AT (interpose), 1 },
#undef AT
};

/* Apply KEY=VALUE, KLEN and VLEN bytes; -1 if VALUE is bad, -2 if KEY
   is unknown, -3 if it is bad and WARN was told why.  */
static int
apply_item (struct mp_config *cfg, const char *key, size_t klen,
            const char *value, size_t vlen, mp_preset_fn *preset,
            mp_warn_fn *warn)
{
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    {
      if (!name_is (keys[i].name, key, klen)
          && !name_is (keys[i].letter, key, klen))
        continue;
      void *field = (char *) cfg + keys[i].offset;
      switch (keys[i].type)
        {
        case REPORT_PATH:
        case OUTPUT_PATH:
          return set_path (field, value, vlen, keys[i].type == REPORT_PATH);
        case SECTIONS:
          return set_sections (field, value, vlen);
        case NUMBER:
          return parse_bounded (value, vlen, keys[i].max, field);
        case RATE:
          if (parse_rate (value, vlen, field) != 0)
            return -1;
          cfg->sampling_rate_given = 1;
          return 0;
        case VM_FRAMES:
          return set_vm_frames (field, value, vlen);
        case STATS:
        case PER_CALL_STATS:
          return set_stats (field, key, klen, value, vlen,
                            keys[i].type == PER_CALL_STATS, warn);
        }
    }
  int field = mp_control_find (key, klen);
  if (field < 0)
    return -2;
  return set_control (field, value, vlen, preset);
}

static void
warn_item (const char *text, size_t len, const char *key, size_t klen,
           int why, mp_warn_fn *warn)
{
  char a[72], b[72];
  if (why == -2)
    warn ("MEMPROF: unknown key '%s' (ignored)", shown (key, klen, a));
  else if (why == -3)
    ;                           /* told already */
  else if (why == -1)
    warn ("MEMPROF: bad value '%s' for '%s' (ignored)",
          shown (text, len, a), shown (key, klen, b));
  else
    warn ("MEMPROF: '%s' has no value (ignored)", shown (text, len, a));
}

/* PATH (malloc'ed: freed here) as the file it names, whatever its
   spelling: its directory's real path, then its last component, as the
   file need not exist yet; PATH itself if the directory is not there.
   NULL without memory.  */
static char *
resolved (char *path)
{
  const char *slash = path ? strrchr (path, '/') : NULL;
  size_t dir_len = slash == NULL ? 0 : slash == path ? 1
                   : (size_t) (slash - path);
  char dir[PATH_MAX], real[PATH_MAX];
  if (path == NULL || dir_len >= sizeof dir)
    return path;
  memcpy (dir, path, dir_len);
  dir[dir_len] = '\0';
  if (realpath (dir_len ? dir : ".", real) == NULL)
    return path;
  const char *base = slash ? slash + 1 : path;
  size_t real_len = strlen (real), size = real_len + 1 + strlen (base) + 1;
  char *out = malloc (size);
  if (out != NULL)
    snprintf (out, size, "%s%s%s", real, real[real_len - 1] == '/' ? "" : "/",
              base);
  free (path);
  return out;
}

/* Whether paths A and B name one file, in this process or in a child
   it forks, which writes PATH.PID for a PATH without %p
   (mp_config_path).  */
static int
same_file (const char *a, const char *b)
{
  int same = 0;
  for (int forked = 0; forked < 2 && !same; forked++)
    {
      char *x = resolved (mp_config_path (a, 0, forked));
      char *y = resolved (mp_config_path (b, 0, forked));
      same = x && y && strcmp (x, y) == 0;
      free (x);
      free (y);
    }
  return same;
}

/* Two outputs that one path names would each replace the other's file
   as it is written: the later in this list is dropped, with a warning.
   The JSON and the page may share a path: the page holds the report
   (output.c).  */
static void
distinct_paths (struct mp_config *cfg, mp_warn_fn *warn)
{
  struct { const char *key; char **path; } outs[] = {
    { "report", &cfg->report_path }, { "eventlog", &cfg->eventlog_path },
    { "pprof", &cfg->pprof_path }, { "folded", &cfg->folded_path },
    { "json", &cfg->json_path }, { "html", &cfg->html_path }
  };
  size_t n = sizeof outs / sizeof outs[0];
  for (size_t j = 1; j < n; j++)
    for (size_t i = 0; i < j && *outs[j].path != NULL; i++)
      if (*outs[i].path != NULL && **outs[i].path != '\0'
          && same_file (*outs[i].path, *outs[j].path)
          && !(i == n - 2 && j == n - 1))
        {
          char a[72];
          warn ("MEMPROF: %s and %s name the same file '%s': no %s written",
                outs[i].key, outs[j].key,
                shown (*outs[j].path, strlen (*outs[j].path), a),
                outs[j].key);
          free (*outs[j].path);
          *outs[j].path = NULL;
        }
}

void
mp_config_parse (const char *text, struct mp_config *cfg,
                 mp_preset_fn *preset, mp_warn_fn *warn)
{
  while (text && *text)
    {
      size_t len = strcspn (text, ",");
      const char *eq = memchr (text, '=', len);
      if (len == 0)
        ;                       /* an empty item: nothing to do */
      else if (eq == NULL)
        warn_item (text, len, NULL, 0, 0, warn);
      else
        {
          size_t klen = (size_t) (eq - text), vlen = len - klen - 1;
          int why = apply_item (cfg, text, klen, eq + 1, vlen, preset,
                                warn);
          if (why != 0)
            warn_item (eq + 1, vlen, text, klen, why, warn);
        }
      text += len + (text[len] == ',');
    }
  distinct_paths (cfg, warn);
}

char *
mp_config_path (const char *path, long pid, int forked)
{
  char digits[24];
  int n_pid = snprintf (digits, sizeof digits, "%ld", pid);
  size_t size = strlen (path) + 1;
  for (const char *p = strchr (path, '%'); p; p = strchr (p + 1, '%'))
    size += (size_t) n_pid;
  size += 1 + (size_t) n_pid;          /* room for `.PID' */
  char *out = malloc (size), *o = out;
  if (out == NULL)
    return NULL;
  int has_pid = 0;
  for (const char *p = path; *p; p++)
    {
      if (p[0] == '%' && p[1] == 'p')
        {
          o = stpcpy (o, digits);
          has_pid = 1;
          p++;
        }
      else
        {
          *o++ = *p;
          p += p[0] == '%' && p[1] == '%';
        }
    }
  *o = '\0';
  if (!has_pid && forked)
    sprintf (o, ".%s", digits);
  return out;
}
