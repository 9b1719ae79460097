/* object.c -- every heap object of the VM is made here, on the Boehm
   heap: pairs, strings, vectors, closures, primitives, call frames and
   interned symbols.  These are the allocation sites a profile of the VM
   shows.  */

#include <gc.h>
#include <string.h>
#include "scheme.h"

void *
must (void *p)
{
  if (p == NULL)
    error (current_line, "out of memory");
  return p;
}

obj
cons (obj a, obj d)
{
  obj *p = must (GC_MALLOC (2 * sizeof (obj)));
  p[0] = a;
  p[1] = d;
  return (obj) p + 2;
}

/* Strings hold no pointers: atomic, so the collector never scans them.  */
obj
make_string (const char *chars, size_t length)
{
  struct string *s = must (GC_MALLOC_ATOMIC (sizeof *s + length + 1));
  s->type = T_STRING;
  s->length = length;
  if (chars)
    memcpy (s->chars, chars, length);
  else
    memset (s->chars, ' ', length);
  s->chars[length] = '\0';
  return (obj) s;
}

obj
make_vector (size_t length, obj fill)
{
  struct vector *v = must (GC_MALLOC (sizeof *v + length * sizeof (obj)));
  v->type = T_VECTOR;
  v->length = length;
  for (size_t i = 0; i < length; i++)
    v->items[i] = fill;
  return (obj) v;
}

obj
make_closure (const struct node *lambda, struct frame *env)
{
  struct closure *c = must (GC_MALLOC (sizeof *c));
  c->type = T_CLOSURE;
  c->lambda = lambda;
  c->env = env;
  return (obj) c;
}

obj
make_primitive (const char *name, primitive_fn fn, int min, int max)
{
  struct primitive *p = must (GC_MALLOC (sizeof *p));
  *p = (struct primitive) { T_PRIMITIVE, name, fn, min, max };
  return (obj) p;
}

struct frame *
make_frame (struct frame *parent, size_t n_slots)
{
  struct frame *f = must (GC_MALLOC (sizeof *f + n_slots * sizeof (obj)));
  f->type = T_FRAME;
  f->parent = parent;
  return f;
}

/* ---- symbols -----------------------------------------------------------

   Interned in an open-addressing table of a power-of-2 size, at most half
   full; the table is a GC_MALLOC'ed array held by a static root, so the
   symbols live as long as the program.  */

static obj *symbols;
static size_t n_symbols, symbols_size;

static size_t
hash (const char *s)
{
  size_t h = 5381;
  for (; *s; s++)
    h = h * 33 + (unsigned char) *s;
  return h;
}

static obj *
slot_of (obj *table, size_t size, const char *name)
{
  size_t i = hash (name) & (size - 1);
  while (table[i] && strcmp (AS (symbol, table[i])->name, name) != 0)
    i = (i + 1) & (size - 1);
  return &table[i];
}

static void
grow (void)
{
  size_t size = symbols_size ? 2 * symbols_size : 256;
  obj *table = must (GC_MALLOC (size * sizeof *table));
  for (size_t i = 0; i < symbols_size; i++)
    if (symbols[i])
      *slot_of (table, size, AS (symbol, symbols[i])->name) = symbols[i];
  symbols = table;
  symbols_size = size;
}

obj
intern (const char *name)
{
  if (2 * (n_symbols + 1) > symbols_size)
    grow ();
  obj *slot = slot_of (symbols, symbols_size, name);
  if (*slot == 0)
    {
      struct symbol *s = must (GC_MALLOC (sizeof *s));
      size_t n = strlen (name);
      char *copy = must (GC_MALLOC_ATOMIC (n + 1));
      memcpy (copy, name, n + 1);
      *s = (struct symbol) { T_SYMBOL, UNBOUND, copy };
      *slot = (obj) s;
      n_symbols++;
    }
  return *slot;
}

/* A circular list is not a proper one: SLOW goes one pair for FAST's
   two, and meets it if there is a cycle.  */
long
list_length (obj list)
{
  long n = 0;
  obj slow = list;
  while (is_pair (list))
    {
      list = cdr (list);
      if (++n % 2 == 0 && (slow = cdr (slow)) == list)
        return -1;
    }
  return list == NIL ? n : -1;
}
