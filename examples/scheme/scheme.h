/* scheme.h -- a small Scheme on the Boehm heap: the values, and what the
   parts of the VM (object.c, read.c, compile.c, eval.c, primitives.c,
   print.c, main.c) give each other.

   A value is one word.  Its low bits say what it is:

     ...xxx1   a fixnum, the word shifted right by one (63 bits);
     ...x010   a pair: the address of two words (car, cdr) plus 2, with
               no header (main.c registers the displacement 2 with
               Boehm, which recognises no other interior pointer: the
               VM keeps pointers to the start of its objects);
     ...x100   an immediate: (), #f, #t, the unspecified value, the end of
               file, the unbound marker, or a character (its code << 8);
     ...x000   any other heap object: the address of a struct whose first
               field is its `enum type'.

   Every heap object is on Boehm's heap (object.c), atomic when it holds
   no pointer (strings); the VM frees nothing.  */

#ifndef SCHEME_H
#define SCHEME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uintptr_t obj;

#define NIL         ((obj) 0x04)
#define FALSE       ((obj) 0x0c)
#define TRUE        ((obj) 0x14)
#define UNSPECIFIED ((obj) 0x1c)
#define END_OF_FILE ((obj) 0x24)
#define UNBOUND     ((obj) 0x2c)  /* a global's value before its define */
#define CHAR_TAG    0x34

#define FIXNUM_MAX  (INTPTR_MAX >> 1)
#define FIXNUM_MIN  (INTPTR_MIN >> 1)

static inline int is_fixnum (obj x) { return x & 1; }
static inline intptr_t fixnum_value (obj x) { return (intptr_t) x >> 1; }
static inline obj make_fixnum (intptr_t n) { return ((obj) n << 1) | 1; }
static inline int is_pair (obj x) { return (x & 7) == 2; }
static inline int is_char (obj x) { return (x & 0xff) == CHAR_TAG; }
static inline int char_value (obj x) { return (int) (x >> 8); }
static inline obj make_char (int c) { return ((obj) c << 8) | CHAR_TAG; }
static inline obj boolean (int b) { return b ? TRUE : FALSE; }

enum type
{
  T_SYMBOL, T_STRING, T_VECTOR, T_CLOSURE, T_PRIMITIVE, T_FRAME
};

struct symbol
{
  enum type type;
  obj value;                    /* the global variable's, or UNBOUND */
  const char *name;             /* atomic, NUL-terminated */
};

struct string
{
  enum type type;
  size_t length;
  char chars[];                 /* NUL-terminated too, for C */
};

struct vector
{
  enum type type;
  size_t length;
  obj items[];
};

/* A call's variables: its arguments, then the variables its body
   defines.  */
struct frame
{
  enum type type;
  struct frame *parent;         /* the frame the lambda was made in */
  obj slots[];
};

struct node;

struct closure
{
  enum type type;
  const struct node *lambda;    /* a N_LAMBDA node */
  struct frame *env;
};

/* A primitive takes its ARGC arguments in ARGV.  */
typedef obj (*primitive_fn) (int argc, obj *argv);

struct primitive
{
  enum type type;
  const char *name;
  primitive_fn fn;
  int min_args, max_args;       /* max_args -1: any number */
};

static inline int
has_type (obj x, enum type t)
{
  return (x & 7) == 0 && *(enum type *) x == t;
}

static inline obj car (obj p) { return ((obj *) (p - 2))[0]; }
static inline obj cdr (obj p) { return ((obj *) (p - 2))[1]; }
static inline obj *car_ref (obj p) { return &((obj *) (p - 2))[0]; }
static inline obj *cdr_ref (obj p) { return &((obj *) (p - 2))[1]; }

#define AS(T, x) ((struct T *) (x))

/* object.c: making objects.  MUST takes GC_MALLOC's result: an
   "out of memory" error if it is NULL.  vm_alloc and vm_alloc_atomic
   are GC_MALLOC and GC_MALLOC_ATOMIC, counted.  vm_allocations counts
   every object the VM allocates, on the Boehm heap or with malloc.  */
void *must (void *p);
void *vm_alloc (size_t bytes);
void *vm_alloc_atomic (size_t bytes);
extern unsigned long vm_allocations;
obj cons (obj a, obj d);
obj make_string (const char *chars, size_t length);
obj make_vector (size_t length, obj fill);
obj make_closure (const struct node *lambda, struct frame *env);
obj make_primitive (const char *name, primitive_fn fn, int min, int max);
struct frame *make_frame (struct frame *parent, size_t n_slots);
obj intern (const char *name);
long list_length (obj list);    /* -1 if not a proper list */

/* read.c: the next datum of IN, or END_OF_FILE; *LINE is where it
   started (counted from 1 in IN's `struct reader').  */
struct reader
{
  FILE *in;
  const char *name;             /* for messages */
  int line;
};
obj read_datum (struct reader *r, int *line);
/* The line the reader gave the list at pair P, or 0.  */
int source_line (obj p);
void forget_source_lines (void);

/* compile.c: the tree of nodes for a datum of FILE; eval.c runs it.  */
const struct node *compile (obj x, const char *file, int line);

/* eval.c: eval_init takes the address of a local of main, where the C
   stack starts; check_stack is an error at LINE if the stack is nearly
   full, for every part that recurses on the depth of the data.  */
void eval_init (void *stack_base);
void check_stack (int line);
obj run (const struct node *n);
obj apply (obj f, int argc, obj *argv);

/* primitives.c */
void define_primitives (void);

/* print.c: X as `display' (WRITE 0) or `write' shows it; repr gives it
   as `write' would, cut short, in a static buffer, for messages.  */
void print (FILE *out, obj x, int write);
const char *repr (obj x);

/* main.c: errors.  The message goes to stderr as FILE:LINE: MESSAGE, and
   control goes back to the top level, which reads on.  */
_Noreturn void error (int line, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* The line of what eval.c is running, for errors of primitives.  */
extern int current_line;
_Noreturn void type_error (const char *who, const char *expected, obj got);

#endif
