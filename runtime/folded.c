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
   (quotes, backslashes, UTF-8) is written as it is.  */

#include <stdlib.h>
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

static void
write_stack (FILE *out, const struct mp_profile_row *r)
{
  const char *sep = "";
  for (size_t k = r->n_ras; k-- > 0;)
    {
      const struct mp_frame *frames;
      size_t n = mp_symbolise_one (r->ras[k], MP_SYMBOLS_NAMES, &frames);
      for (size_t f = n; f-- > 0;)
        {
          fputs (sep, out);
          write_name (out, frames[f].function);
          sep = ";";
        }
    }
  fprintf (out, " %.0f\n", r->v.allocated.data);
}

int
mp_write_folded (FILE *out)
{
  double min, max;
  size_t n;
  struct mp_profile_row *rows = mp_profile_rows (&n, &min, &max);
  if (rows == NULL)
    return -1;
  for (size_t i = 0; i < n; i++)
    if (rows[i].v.allocated.data >= 0.5)
      write_stack (out, &rows[i]);
  mp_profile_rows_free (rows, n);
  return 0;
}
