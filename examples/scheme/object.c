/* object.c -- every heap object of the VM is made here, on the Boehm
   heap: pairs, strings, vectors, closures, primitives, call frames and
   interned symbols.  These are the allocation sites a profile of the VM
   shows.

   As real VMs do (GNU Guile's scm_inline_gc_alloc), the small objects
   with pointers are popped inline from free lists of the thread's own,
   which Boehm refills a block at a time (gc_inline.h's GC_CONS and
   GC_MALLOC_WORDS, over GC_generic_malloc_many): no call into the
   collector for most allocations.  The VM counts each object it makes in vm_allocations,
   which memprof's count of GC allocations must equal.  */

#include <gc.h>
#include <gc/gc_inline.h>
#include <string.h>
#include "scheme.h"

unsigned long vm_allocations;

/* The thread's free lists, by size in granules, of objects with
   pointers.  Boehm must see the objects waiting in them: the array is
   uncollectable, so it is a root (a thread-local variable is not), and
   each object points to the next.  Atomic objects are not kept on free
   lists: Boehm does not trace through them, so a list of them would
   lose all but its first object (GNU Guile marks its pointerless lists
   with a mark procedure of its own).  */
static __thread void **free_lists;

static void **
lists (void)
{
  if (__builtin_expect (free_lists == NULL, 0))
    {
      free_lists = must (GC_MALLOC_UNCOLLECTABLE (GC_TINY_FREELISTS
                                                  * sizeof (void *)));
      vm_allocations++;
    }
  return free_lists;
}

void *
must (void *p)
{
  if (p == NULL)
    error (current_line, "out of memory");
  return p;
}

void *
vm_alloc (size_t bytes)
{
  vm_allocations++;
  return must (GC_MALLOC (bytes));
}

void *
vm_alloc_atomic (size_t bytes)
{
  vm_allocations++;
  return must (GC_MALLOC_ATOMIC (bytes));
}

/* P = N words with pointers, popped from the thread's free lists: a
   macro, so that each kind of object has a site of its own, in the
   function that makes it.  */
#define WORDS(p, n)                                                     \
  do                                                                    \
    {                                                                   \
      vm_allocations++;                                                 \
      GC_MALLOC_WORDS (p, n, lists ());                                \
      must (p);                                                         \
    }                                                                   \
  while (0)

obj
cons (obj a, obj d)
{
  void *p;
  vm_allocations++;
  GC_CONS (p, a, d, lists ());
  return (obj) must (p) + 2;
}

/* Strings hold no pointers: atomic, so the collector never scans them.  */
obj
make_string (const char *chars, size_t length)
{
  struct string *s = vm_alloc_atomic (sizeof *s + length + 1);
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
  struct vector *v;
  WORDS (v, 2 + length);
  v->type = T_VECTOR;
  v->length = length;
  for (size_t i = 0; i < length; i++)
    v->items[i] = fill;
  return (obj) v;
}

obj
make_closure (const struct node *lambda, struct frame *env)
{
  struct closure *c;
  WORDS (c, 3);
  c->type = T_CLOSURE;
  c->lambda = lambda;
  c->env = env;
  return (obj) c;
}

obj
make_primitive (const char *name, primitive_fn fn, int min, int max)
{
  struct primitive *p = vm_alloc (sizeof *p);
  *p = (struct primitive) { T_PRIMITIVE, name, fn, min, max };
  return (obj) p;
}

struct frame *
make_frame (struct frame *parent, size_t n_slots)
{
  struct frame *f;
  WORDS (f, 2 + n_slots);
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
  obj *table = vm_alloc (size * sizeof *table);
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
      struct symbol *s = vm_alloc (sizeof *s);
      size_t n = strlen (name);
      char *copy = vm_alloc_atomic (n + 1);
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
