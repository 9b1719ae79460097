/* path.c -- libFuzzer's harness for the `%p' of MEMPROF's paths,
   mp_config_path.

   The input's first byte picks the pid and whether the process is a
   forked child; the rest is the path.  Besides what the sanitizers
   catch, it checks what a path without `%' must become.  */

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"

static void
fail (const char *what, const char *path)
{
  fprintf (stderr, "fuzz/path: %s: %s\n", what, path);
  abort ();
}

/* A path without `%' is kept, with `.PID' after it in a forked child.  */
static void
check_plain (const char *path, long pid, int forked, const char *out)
{
  char want[32] = "";
  if (forked)
    snprintf (want, sizeof want, ".%ld", pid);
  size_t n = strlen (path);
  if (strncmp (out, path, n) != 0 || strcmp (out + n, want) != 0)
    fail ("a plain path changed", path);
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const long pids[] = { 1, 42, 4194304, INT_MAX, 0, -1, LONG_MIN,
                               LONG_MAX };
  if (size == 0)
    return 0;
  long pid = pids[data[0] % (sizeof pids / sizeof pids[0])];
  int forked = data[0] >> 7;
  char *path = malloc (size);
  if (path == NULL)
    return 0;
  memcpy (path, data + 1, size - 1);
  path[size - 1] = '\0';

  char *out = mp_config_path (path, pid, forked);
  if (out == NULL)
    fail ("out of memory", path);
  if (strchr (path, '%') == NULL)
    check_plain (path, pid, forked, out);
  free (out);
  free (path);
  return 0;
}
