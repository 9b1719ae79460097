/* read.c -- the reader: text to data, counting lines.

   Reads integers, symbols, strings with \n \t \r \a \" \\ escapes, #t
   and #f, characters (#\a, #\space, #\newline, #\tab), lists (dotted
   too), vectors #( ... ), 'x for (quote x) and ; comments.  Each list
   it makes is entered with its line in `lines', for the compiler's
   messages, until forget_source_lines.  It recurses on the nesting of
   the data, checking the C stack.  */

#include <ctype.h>
#include <errno.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include "scheme.h"

/* ---- where lists started -----------------------------------------------

   An open-addressing table from a pair to its line, in GC_MALLOC'ed
   arrays held by static roots: it keeps the pairs alive, and is dropped
   after each top-level form.  */

static obj *line_keys;
static int *line_values;        /* atomic */
static size_t n_lines, lines_size;

static size_t
slot (obj *keys, size_t size, obj p)
{
  size_t i = (size_t) (p >> 4) * 0x9e3779b97f4a7c15u >> 20 & (size - 1);
  while (keys[i] && keys[i] != p)
    i = (i + 1) & (size - 1);
  return i;
}

static void
note_line (obj p, int line)
{
  if (2 * (n_lines + 1) > lines_size)
    {
      size_t size = lines_size ? 2 * lines_size : 64;
      obj *keys = vm_alloc (size * sizeof *keys);
      int *values = vm_alloc_atomic (size * sizeof *values);
      memset (values, 0, size * sizeof *values);
      for (size_t i = 0; i < lines_size; i++)
        if (line_keys[i])
          {
            size_t j = slot (keys, size, line_keys[i]);
            keys[j] = line_keys[i];
            values[j] = line_values[i];
          }
      line_keys = keys;
      line_values = values;
      lines_size = size;
    }
  size_t i = slot (line_keys, lines_size, p);
  n_lines += line_keys[i] == 0;
  line_keys[i] = p;
  line_values[i] = line;
}

int
source_line (obj p)
{
  if (lines_size == 0)
    return 0;
  size_t i = slot (line_keys, lines_size, p);
  return line_keys[i] ? line_values[i] : 0;
}

void
forget_source_lines (void)
{
  line_keys = NULL;
  line_values = NULL;
  n_lines = lines_size = 0;
}

/* ---- characters --------------------------------------------------------- */

static int
next (struct reader *r)
{
  int c = getc (r->in);
  r->line += c == '\n';
  return c;
}

static void
back (struct reader *r, int c)
{
  if (c == EOF)
    return;
  r->line -= c == '\n';
  ungetc (c, r->in);
}

/* The first character past white space and comments.  */
static int
skip_space (struct reader *r)
{
  for (;;)
    {
      int c = next (r);
      if (c == ';')
        while (c != '\n' && c != EOF)
          c = next (r);
      if (c == EOF || !isspace (c))
        return c;
    }
}

static int
is_delimiter (int c)
{
  return c == EOF || isspace (c) || (c != '\0' && strchr ("()\";'", c));
}

/* The token that starts with C, into BUF of SIZE.  */
static void
token (struct reader *r, int c, char *buf, size_t size)
{
  size_t n = 0;
  for (; !is_delimiter (c); c = next (r))
    {
      if (iscntrl (c))
        error (r->line, "bad syntax: control character \\x%02x", (unsigned) c);
      if (n + 1 == size)
        error (r->line, "token too long: %.20s...", buf);
      buf[n++] = (char) c;
      buf[n] = '\0';
    }
  buf[n] = '\0';
  back (r, c);
}

/* ---- data --------------------------------------------------------------- */

static obj read_list (struct reader *r, int close, int line);

/* The character escape \C stands for in a string, or -1.  */
static int
unescape (int c)
{
  switch (c)
    {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case 'a':
      return '\a';
    case '\\':
    case '"':
      return c;
    default:
      return -1;
    }
}

static obj
read_string (struct reader *r)
{
  int line = r->line;
  size_t n = 0, cap = 64;
  char *buf = vm_alloc_atomic (cap);
  for (int c; (c = next (r)) != '"';)
    {
      if (c == EOF)
        error (line, "unterminated string");
      if (c == '\\')
        {
          c = next (r);
          if (c == EOF)
            error (line, "unterminated string");
          int e = unescape (c);
          if (e < 0)
            error (r->line, "bad syntax: unknown escape \\%c in a string",
                   c);
          c = e;
        }
      if (n + 1 == cap)
        buf = must (GC_REALLOC (buf, cap *= 2));
      buf[n++] = (char) c;
    }
  return make_string (buf, n);
}

static obj
read_hash (struct reader *r)
{
  char buf[64];
  int c = next (r);
  if (c == '(')
    {
      obj list = read_list (r, ')', r->line);
      long n = list_length (list);
      if (n < 0)
        error (r->line, "bad syntax: a dotted vector");
      obj v = make_vector ((size_t) n, NIL);
      for (long i = 0; i < n; i++, list = cdr (list))
        AS (vector, v)->items[i] = car (list);
      return v;
    }
  if (c == '\\')
    {
      c = next (r);
      if (c == EOF)
        error (r->line, "bad syntax: #\\ at the end of the input");
      buf[0] = (char) c;
      token (r, next (r), buf + 1, sizeof buf - 1);
      if (buf[1] == '\0')
        return make_char ((unsigned char) buf[0]);
      if (strcmp (buf, "space") == 0)
        return make_char (' ');
      if (strcmp (buf, "newline") == 0)
        return make_char ('\n');
      if (strcmp (buf, "tab") == 0)
        return make_char ('\t');
      error (r->line, "bad syntax: unknown character #\\%s", buf);
    }
  token (r, c, buf, sizeof buf);
  if (strcmp (buf, "t") == 0 || strcmp (buf, "true") == 0)
    return TRUE;
  if (strcmp (buf, "f") == 0 || strcmp (buf, "false") == 0)
    return FALSE;
  error (r->line, "bad syntax: #%s", buf);
}

/* An integer if BUF is one (too large: an error), else a symbol; what
   starts like a number must be an integer.  */
static obj
atom (struct reader *r, const char *buf)
{
  if (strcmp (buf, ".") == 0)
    error (r->line, "bad syntax: '.' outside a list");
  const char *digits = buf + (buf[0] == '-' || buf[0] == '+');
  if (isdigit ((unsigned char) *digits))
    {
      char *end;
      errno = 0;
      long long n = strtoll (buf, &end, 10);
      if (*end != '\0')
        error (r->line, "bad syntax: %s is not an integer (this Scheme has "
               "no other numbers)", buf);
      if (errno == ERANGE || n > FIXNUM_MAX || n < FIXNUM_MIN)
        error (r->line, "integer too large: %s", buf);
      return make_fixnum ((intptr_t) n);
    }
  return intern (buf);
}

/* The datum that starts with C.  */
static obj
datum (struct reader *r, int c)
{
  char buf[256];
  check_stack (r->line);
  if (c != EOF && iscntrl (c) && !isspace (c))
    error (r->line, "bad syntax: control character \\x%02x", (unsigned) c);
  switch (c)
    {
    case '(':
      return read_list (r, ')', r->line);
    case ')':
      error (r->line, "unbalanced parentheses: unexpected ')'");
    case '\'':
      {
        int line = r->line;
        c = skip_space (r);
        if (c == EOF || c == ')')
          error (line, "bad syntax: nothing after '");
        obj q = cons (intern ("quote"), cons (datum (r, c), NIL));
        note_line (q, line);
        return q;
      }
    case '"':
      return read_string (r);
    case '#':
      return read_hash (r);
    default:
      token (r, c, buf, sizeof buf);
      return atom (r, buf);
    }
}

/* The rest of a list opened at LINE, up to CLOSE.  */
static obj
read_list (struct reader *r, int close, int line)
{
  obj head = NIL, tail = NIL;
  for (;;)
    {
      int c = skip_space (r);
      if (c == EOF)
        error (line, "unbalanced parentheses: the list opened here is "
               "not closed");
      if (c == close)
        break;
      if (c == '.')
        {
          int d = next (r);
          back (r, d);
          if (is_delimiter (d))
            {
              if (tail == NIL)
                error (r->line, "bad syntax: '.' at the start of a list");
              c = skip_space (r);
              if (c == close)
                error (r->line, "bad syntax: nothing after '.'");
              if (c != EOF)
                *cdr_ref (tail) = datum (r, c);
              if (c == EOF || (c = skip_space (r)) == EOF)
                error (line, "unbalanced parentheses: the list opened here "
                       "is not closed");
              if (c != close)
                error (r->line, "bad syntax: more than one datum after '.'");
              break;
            }
        }
      obj x = datum (r, c);
      obj p = cons (x, NIL);
      if (tail == NIL)
        head = p;
      else
        *cdr_ref (tail) = p;
      tail = p;
    }
  if (head != NIL)
    note_line (head, line);
  return head;
}

obj
read_datum (struct reader *r, int *line)
{
  int c = skip_space (r);
  *line = r->line;
  return c == EOF ? END_OF_FILE : datum (r, c);
}
