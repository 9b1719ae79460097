/* config.c -- libFuzzer's harness for MEMPROF's parser, mp_config_parse.

   Each input is a value of MEMPROF.  Besides what the sanitizers catch,
   it checks what memprof.h promises of the parser: each warning is one
   line, the settings it keeps are in their ranges, and an item means
   the same alone as among others (parsed one at a time, from buffers of
   their exact size, the items must give the same settings and the same
   warnings as the whole).  */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "config.h"
#include "fields.h"
#include "stats-choice.h"

/* More than any warning takes: two texts of at most 64 characters and
   a `...' each, and the words around them.  */
#define WARNING_MAX 200

/* What a parse gave besides its struct mp_config.  */
struct effects
{
  long control[F_COUNT];
  unsigned given;               /* bit F: control[F] was preset */
  unsigned warnings;
  uint64_t hash;                /* of the warnings' text, in order */
};

static struct effects seen;

static void
fail (const char *what, const char *text)
{
  fprintf (stderr, "fuzz/config: %s: %s\n", what, text);
  abort ();
}

/* As mp_control_preset, without its effects: the range is the table's.  */
static int
preset (int f, long v)
{
  if (f < 0 || f >= F_COUNT || v < 0)
    fail ("preset out of the table", "");
  if (v < mp_fields[f].min || v > mp_fields[f].max)
    return -1;
  seen.control[f] = v;
  seen.given |= 1u << f;
  return 0;
}

static void
warn (const char *fmt, ...)
{
  char line[WARNING_MAX + 1];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  if (n < 0 || n > WARNING_MAX)
    fail ("warning too long", line);
  for (const char *c = line; *c; c++)
    {
      if ((unsigned char) *c < 0x20 || *c == 0x7f)
        fail ("warning not one line", line);
      seen.hash = (seen.hash ^ (unsigned char) *c) * 0x100000001b3;
    }
  seen.hash = (seen.hash ^ '\n') * 0x100000001b3;
  seen.warnings++;
}

static int
same_path (const char *a, const char *b)
{
  return a == b || (a && b && strcmp (a, b) == 0);
}

static char **
path_of (struct mp_config *c, int i)
{
  char **paths[] = { &c->report_path, &c->pprof_path, &c->folded_path,
                     &c->json_path, &c->html_path, &c->eventlog_path };
  return paths[i];
}

#define N_PATHS 6

/* The promises of memprof.h about what is kept.  */
static void
check_ranges (struct mp_config *c, const char *text)
{
  if (!(c->sampling_rate >= 0 && c->sampling_rate <= 1)
      || c->callstack_size > MP_MAX_CALLSTACK
      || c->init_heap_words > (UINT64_C (1) << 40)
      || (c->sections & ~(unsigned) MP_SECTIONS_ALL) != 0
      || (c->stats & ~MP_STATS_EVERY) != 0
      || (c->per_call & ~MP_STATS_PER_CALL) != 0 || c->eventlog_paused > 1
      || c->interpose > 1)
    fail ("a setting out of its range", text);
  for (int i = 1; i < N_PATHS; i++)
    if (*path_of (c, i) && **path_of (c, i) == '\0')
      fail ("an empty path", text);
}

/* Every field of struct mp_config.  */
static void
check_same (struct mp_config *a, struct mp_config *b, const char *text)
{
  int same = a->sites == b->sites && a->functions == b->functions
             && a->sampling_rate == b->sampling_rate
             && a->callstack_size == b->callstack_size
             && a->stacks == b->stacks && a->sections == b->sections
             && a->init_heap_words == b->init_heap_words
             && a->own_limit == b->own_limit && a->stats == b->stats
             && a->per_call == b->per_call
             && a->eventlog_paused == b->eventlog_paused
             && a->interpose == b->interpose;
  for (int i = 0; i < N_PATHS; i++)
    same = same && same_path (*path_of (a, i), *path_of (b, i));
  if (!same)
    fail ("items alone differ from the whole", text);
}

static int
same_effects (const struct effects *a, const struct effects *b)
{
  for (int f = 0; f < F_COUNT; f++)
    if ((a->given >> f & 1) && a->control[f] != b->control[f])
      return 0;
  return a->given == b->given && a->warnings == b->warnings
         && a->hash == b->hash;
}

static void
free_paths (struct mp_config *c)
{
  for (int i = 0; i < N_PATHS; i++)
    free (*path_of (c, i));
}

/* Parse TEXT's items one by one into *C, each from a copy of its own.  */
static void
parse_items (const char *text, struct mp_config *c)
{
  for (;;)
    {
      size_t len = strcspn (text, ",");
      char *item = malloc (len + 1);
      if (item == NULL)
        fail ("out of memory", "");
      memcpy (item, text, len);
      item[len] = '\0';
      mp_config_parse (item, c, preset, warn);
      free (item);
      if (text[len] == '\0')
        break;
      text += len + 1;
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text = malloc (size + 1);
  if (text == NULL)
    return 0;
  memcpy (text, data, size);
  text[size] = '\0';

  struct mp_config whole = mp_config, alone = mp_config;
  memset (&seen, 0, sizeof seen);
  mp_config_parse (text, &whole, preset, warn);
  check_ranges (&whole, text);
  struct effects first = seen;

  memset (&seen, 0, sizeof seen);
  parse_items (text, &alone);
  check_same (&whole, &alone, text);
  if (!same_effects (&first, &seen))
    fail ("items alone warn or preset otherwise", text);

  free_paths (&whole);
  free_paths (&alone);
  free (text);
  return 0;
}
