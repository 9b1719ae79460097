/* config.c -- the MEMPROF environment variable.

   MEMPROF is a comma-separated list of KEY=VALUE items, as OCAMLRUNPARAM:

     report=PATH   write the exit report to PATH instead of stderr;
                   `stderr` means stderr, `none` turns the report off
     v=N           OCaml's verbose flags (also `verbose`); 0x400, the
                   default, puts the stat record in the exit report
     sites=N       how many sites the report lists, largest first
                   (default 20; 0 lists them all)
     incremental=B Boehm's incremental (generational) marking, 0 or 1.
                   Off by default: on binary-trees it made the program
                   slower (bench/ measures it), and the generational
                   accounting does not need it
     sampling_rate=R  the report's sampling of allocated words, 0 to 1
                   (default 1e-4; 0 turns it off)
     callstack_size=N  frames kept per sampled call stack (default 16,
                   at most MP_MAX_CALLSTACK)
     stacks=N      how many call stacks each report section lists
                   (default 5; 0 lists them all)

   Numbers are decimal, 0x hex or 0 octal.  A bad item gets one warning
   line naming it; the other items still apply and the program runs on.  */

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct mp_config mp_config = { NULL, 0x400, 20, 0, 1e-4, 16, 5 };

void
mp_warn (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs ("memprof: ", stderr);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
}

/* Parse VALUE, LEN bytes, as an unsigned number into *OUT.  */
static int
parse_number (const char *value, size_t len, unsigned long *out)
{
  char buf[32];
  if (len == 0 || len >= sizeof buf || value[0] == '-' || value[0] == '+')
    return -1;
  memcpy (buf, value, len);
  buf[len] = '\0';
  char *end;
  errno = 0;
  unsigned long v = strtoul (buf, &end, 0);
  if (errno != 0 || *end != '\0')
    return -1;
  *out = v;
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

/* Parse a 0 or 1.  */
static int
parse_flag (const char *value, size_t len, unsigned long *out)
{
  return parse_bounded (value, len, 1, out);
}

/* Parse a probability: a decimal number from 0 to 1.  */
static int
parse_rate (const char *value, size_t len, double *out)
{
  char buf[64];
  if (len == 0 || len >= sizeof buf)
    return -1;
  memcpy (buf, value, len);
  buf[len] = '\0';
  char *end;
  errno = 0;
  double v = strtod (buf, &end);
  if (errno != 0 || *end != '\0' || !(v >= 0 && v <= 1))
    return -1;
  *out = v;
  return 0;
}

static int
set_report (struct mp_config *cfg, const char *value, size_t len)
{
  if (len == 0)
    return -1;
  char *path = strndup (value, len);
  if (path == NULL)
    return -1;
  free (cfg->report_path);
  cfg->report_path = NULL;
  if (strcmp (path, "none") == 0)
    path[0] = '\0';
  if (strcmp (path, "stderr") == 0)
    free (path);
  else
    cfg->report_path = path;
  return 0;
}

/* Apply one KEY=VALUE item; KLEN and VLEN are their lengths.  */
static void
apply_item (struct mp_config *cfg, const char *key, size_t klen,
            const char *value, size_t vlen)
{
#define KEY_IS(name) (klen == strlen (name) && memcmp (key, name, klen) == 0)
  int bad = 0;
  if (KEY_IS ("report"))
    bad = set_report (cfg, value, vlen);
  else if (KEY_IS ("v") || KEY_IS ("verbose"))
    bad = parse_number (value, vlen, &cfg->verbose);
  else if (KEY_IS ("sites"))
    bad = parse_number (value, vlen, &cfg->sites);
  else if (KEY_IS ("incremental"))
    bad = parse_flag (value, vlen, &cfg->incremental);
  else if (KEY_IS ("sampling_rate"))
    bad = parse_rate (value, vlen, &cfg->sampling_rate);
  else if (KEY_IS ("callstack_size"))
    bad = parse_bounded (value, vlen, MP_MAX_CALLSTACK, &cfg->callstack_size);
  else if (KEY_IS ("stacks"))
    bad = parse_number (value, vlen, &cfg->stacks);
  else
    {
      mp_warn ("MEMPROF: unknown key '%.*s' (ignored)", (int) klen, key);
      return;
    }
#undef KEY_IS
  if (bad)
    mp_warn ("MEMPROF: bad value '%.*s' for '%.*s' (ignored)",
             (int) vlen, value, (int) klen, key);
}

void
mp_config_parse (const char *text, struct mp_config *cfg)
{
  while (text && *text)
    {
      size_t len = strcspn (text, ",");
      const char *eq = memchr (text, '=', len);
      if (len == 0)
        ;                       /* an empty item: nothing to do */
      else if (eq == NULL)
        mp_warn ("MEMPROF: '%.*s' has no value (ignored)", (int) len, text);
      else
        apply_item (cfg, text, (size_t) (eq - text), eq + 1,
                    len - (size_t) (eq - text) - 1);
      text += len + (text[len] == ',');
    }
}
