/* folded.c -- the report's call stacks as folded stacks
   (MEMPROF=folded=PATH), the input of Brendan Gregg's flamegraph.pl and
   of speedscope: a line per sampled call stack, its frames' functions
   from the outermost to the allocating one joined by `;', a space, and
   the estimated bytes it allocated.  It needs the frames' names, not
   their positions (symbols.h).  A stack cut at callstack_size starts
   with `(truncated)', so that such stacks share one root in a flame
   graph instead of spreading over whatever frames the cut left.

   The format has no escapes: a `;' in a name becomes `:' and a control
   character `?', so that each line keeps its meaning; everything else
   (quotes, backslashes, UTF-8) is written as it is.

   Stacks that differ only in their positions (two calls in one function)
   fold to the same functions: their bytes are summed into one line, as
   the format means a stack to be written once.  */

#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "output.h"
#include "symbols.h"
#include "profile.h"

static void
write_name (FILE *out, const char *name)
{
  for (const unsigned char *s = (const unsigned char *) name; *s; s++)
    fputc (*s == ';' ? ':' : *s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

/* A folded stack: its functions joined, and its bytes.  */
struct line
{
  char *stack;
  double bytes;
};

/* R's functions joined into *OUT (malloc'ed); 0, or -1.  */
static int
fold_stack (const struct mp_profile_row *r, char **out)
{
  size_t size;
  FILE *f = open_memstream (out, &size);
  if (f == NULL)
    return -1;
  const char *sep = "";
  for (size_t k = r->n_ras; k-- > 0;)
    {
      const struct mp_frame *frames;
      size_t n = mp_symbolise_one (r->ras[k], MP_SYMBOLS_NAMES, &frames);
      for (size_t i = n; i-- > 0;)
        {
          fputs (sep, f);
          write_name (f, frames[i].function);
          sep = ";";
        }
    }
  return fclose (f) == 0 ? 0 : -1;
}

static int
by_stack (const void *a, const void *b)
{
  return strcmp (((const struct line *) a)->stack,
                 ((const struct line *) b)->stack);
}

/* LINES[0..N) sorted, each stack once with the bytes of its equals.  */
static void
write_lines (FILE *out, struct line *lines, size_t n)
{
  qsort (lines, n, sizeof *lines, by_stack);
  for (size_t i = 0; i < n;)
    {
      double bytes = 0;
      size_t j = i;
      for (; j < n && strcmp (lines[j].stack, lines[i].stack) == 0; j++)
        bytes += lines[j].bytes;
      fprintf (out, "%s %.0f\n", lines[i].stack, bytes);
      i = j;
    }
}

int
mp_write_folded (FILE *out)
{
  double min, max;
  size_t n, m = 0;
  struct mp_profile_row *rows = mp_profile_rows (&n, &min, &max);
  if (rows == NULL)
    return -1;
  struct line *lines = calloc (n ? n : 1, sizeof *lines);
  int rc = lines ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < n; i++)
    if (rows[i].v.allocated.data >= 0.5)
      {
        lines[m].bytes = rows[i].v.allocated.data;
        rc = fold_stack (&rows[i], &lines[m++].stack);
      }
  if (rc == 0)
    write_lines (out, lines, m);
  for (size_t i = 0; lines && i < m; i++)
    free (lines[i].stack);
  free (lines);
  mp_profile_rows_free (rows, n);
  return rc;
}
