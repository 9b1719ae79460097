/* print.c -- values as text: `display' shows strings and characters as
   they are, `write' as the reader reads them back.  Printing stops when
   the stream fails, and it is an error when the data nests deeper than
   the C stack allows.  */

#define _POSIX_C_SOURCE 200809L  /* fmemopen */
#include <string.h>
#include "scheme.h"

static void
print_list (FILE *out, obj x, int write)
{
  putc ('(', out);
  print (out, car (x), write);
  for (x = cdr (x); is_pair (x) && !ferror (out); x = cdr (x))
    {
      putc (' ', out);
      print (out, car (x), write);
    }
  if (ferror (out))
    return;
  if (x != NIL)
    {
      fputs (" . ", out);
      print (out, x, write);
    }
  putc (')', out);
}

static void
print_char (FILE *out, int c, int write)
{
  if (!write)
    putc (c, out);
  else if (c == ' ')
    fputs ("#\\space", out);
  else if (c == '\n')
    fputs ("#\\newline", out);
  else if (c == '\t')
    fputs ("#\\tab", out);
  else
    fprintf (out, "#\\%c", c);
}

static void
print_string (FILE *out, const struct string *s, int write)
{
  if (!write)
    {
      fwrite (s->chars, 1, s->length, out);
      return;
    }
  putc ('"', out);
  for (size_t i = 0; i < s->length; i++)
    {
      char c = s->chars[i];
      if (c == '"' || c == '\\')
        putc ('\\', out);
      if (c == '\n')
        fputs ("\\n", out);
      else if (c == '\t')
        fputs ("\\t", out);
      else
        putc (c, out);
    }
  putc ('"', out);
}

void
print (FILE *out, obj x, int write)
{
  if (ferror (out))
    return;
  check_stack (current_line);
  if (is_fixnum (x))
    fprintf (out, "%ld", (long) fixnum_value (x));
  else if (is_pair (x))
    print_list (out, x, write);
  else if (is_char (x))
    print_char (out, char_value (x), write);
  else if (x == NIL)
    fputs ("()", out);
  else if (x == TRUE || x == FALSE)
    fputs (x == TRUE ? "#t" : "#f", out);
  else if (x == UNSPECIFIED || x == UNBOUND || x == END_OF_FILE)
    fputs (x == END_OF_FILE ? "#<eof>" : "#<unspecified>", out);
  else
    switch (*(enum type *) x)
      {
      case T_SYMBOL:
        fputs (AS (symbol, x)->name, out);
        break;
      case T_STRING:
        print_string (out, AS (string, x), write);
        break;
      case T_VECTOR:
        fputs ("#(", out);
        for (size_t i = 0; i < AS (vector, x)->length && !ferror (out); i++)
          {
            if (i)
              putc (' ', out);
            print (out, AS (vector, x)->items[i], write);
          }
        putc (')', out);
        break;
      case T_CLOSURE:
        fputs ("#<procedure>", out);
        break;
      case T_PRIMITIVE:
        fprintf (out, "#<primitive %s>", AS (primitive, x)->name);
        break;
      case T_FRAME:
        fputs ("#<frame>", out);
        break;
      }
}

const char *
repr (obj x)
{
  static char buf[80];
  FILE *out = fmemopen (buf, sizeof buf, "w");
  if (out == NULL)
    return "?";
  /* Unbuffered, the stream fails as soon as BUF is full, and print
     stops there, even on circular data.  */
  setvbuf (out, NULL, _IONBF, 0);
  print (out, x, 1);
  fclose (out);
  if (strlen (buf) == sizeof buf - 1)
    strcpy (buf + sizeof buf - 4, "...");
  return buf;
}
