/* primitives.c -- the procedures written in C: numbers, pairs and lists,
   vectors, strings and characters, output.

   Each checks the types of its arguments (a wrong one is an error naming
   the procedure, what it expected and what it got) and its numbers: a
   result outside the fixnums is an error, never a wrapped value.  The
   count of arguments is checked by the caller, from the table at the
   end.  */

#include <ctype.h>
#include <gc.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "scheme.h"

#define PRIM(name) static obj name (int argc, obj *argv)
#define UNUSED (void) argc

/* ---- checks ------------------------------------------------------------ */

static intptr_t
integer (const char *who, obj x)
{
  if (!is_fixnum (x))
    type_error (who, "an integer", x);
  return fixnum_value (x);
}

static obj
fixnum (const char *who, intptr_t n, int overflow)
{
  if (overflow || n > FIXNUM_MAX || n < FIXNUM_MIN)
    error (current_line, "%s: integer overflow", who);
  return make_fixnum (n);
}

static obj
pair (const char *who, obj x)
{
  if (!is_pair (x))
    type_error (who, "a pair", x);
  return x;
}

static obj
list (const char *who, obj x)
{
  if (list_length (x) < 0)
    type_error (who, "a list", x);
  return x;
}

static struct vector *
vector (const char *who, obj x)
{
  if (!has_type (x, T_VECTOR))
    type_error (who, "a vector", x);
  return AS (vector, x);
}

static struct string *
string (const char *who, obj x)
{
  if (!has_type (x, T_STRING))
    type_error (who, "a string", x);
  return AS (string, x);
}

/* An index into something of LENGTH.  */
static size_t
index_in (const char *who, obj k, size_t length)
{
  intptr_t i = integer (who, k);
  if (i < 0 || (size_t) i >= length)
    error (current_line, "%s: index %ld out of range [0, %zu)", who, (long) i,
           length);
  return (size_t) i;
}

/* ---- numbers ----------------------------------------------------------- */

PRIM (p_add)
{
  intptr_t sum = 0;
  int overflow = 0;
  for (int i = 0; i < argc; i++)
    overflow |= __builtin_add_overflow (sum, integer ("+", argv[i]), &sum);
  return fixnum ("+", sum, overflow);
}

PRIM (p_mul)
{
  intptr_t product = 1;
  int overflow = 0;
  for (int i = 0; i < argc; i++)
    overflow |= __builtin_mul_overflow (product, integer ("*", argv[i]),
                                        &product);
  return fixnum ("*", product, overflow);
}

PRIM (p_sub)
{
  intptr_t d = integer ("-", argv[0]);
  int overflow = 0;
  if (argc == 1)
    return fixnum ("-", -d, 0);
  for (int i = 1; i < argc; i++)
    overflow |= __builtin_sub_overflow (d, integer ("-", argv[i]), &d);
  return fixnum ("-", d, overflow);
}

/* quotient, remainder and modulo: OP is q, r or m.  */
static obj
divide (const char *who, obj *argv, char op)
{
  intptr_t a = integer (who, argv[0]), b = integer (who, argv[1]);
  if (b == 0)
    error (current_line, "%s: division by zero", who);
  intptr_t q = a / b, r = a % b;
  if (op == 'm' && r != 0 && (r < 0) != (b < 0))
    r += b;
  return fixnum (who, op == 'q' ? q : r, 0);
}

PRIM (p_quotient) { UNUSED; return divide ("quotient", argv, 'q'); }
PRIM (p_remainder) { UNUSED; return divide ("remainder", argv, 'r'); }
PRIM (p_modulo) { UNUSED; return divide ("modulo", argv, 'm'); }

/* =, <, >, <=, >= over all the arguments: OP is one of "=<>lg".  */
static obj
compare (const char *who, int argc, obj *argv, char op)
{
  int ok = 1;
  for (int i = 0; i < argc; i++)
    integer (who, argv[i]);
  for (int i = 0; i + 1 < argc; i++)
    {
      intptr_t a = fixnum_value (argv[i]), b = fixnum_value (argv[i + 1]);
      ok &= op == '=' ? a == b : op == '<' ? a < b : op == '>' ? a > b
            : op == 'l' ? a <= b : a >= b;
    }
  return boolean (ok);
}

PRIM (p_eq_num) { return compare ("=", argc, argv, '='); }
PRIM (p_lt) { return compare ("<", argc, argv, '<'); }
PRIM (p_gt) { return compare (">", argc, argv, '>'); }
PRIM (p_le) { return compare ("<=", argc, argv, 'l'); }
PRIM (p_ge) { return compare (">=", argc, argv, 'g'); }

PRIM (p_zero) { UNUSED; return boolean (integer ("zero?", argv[0]) == 0); }
PRIM (p_even) { UNUSED; return boolean (integer ("even?", argv[0]) % 2 == 0); }
PRIM (p_odd) { UNUSED; return boolean (integer ("odd?", argv[0]) % 2 != 0); }

PRIM (p_abs)
{
  UNUSED;
  intptr_t n = integer ("abs", argv[0]);
  return fixnum ("abs", n < 0 ? -n : n, 0);
}

/* min and max: MAX is 1 for max.  */
static obj
extreme (const char *who, int argc, obj *argv, int max)
{
  intptr_t best = integer (who, argv[0]);
  for (int i = 1; i < argc; i++)
    {
      intptr_t n = integer (who, argv[i]);
      if (max ? n > best : n < best)
        best = n;
    }
  return make_fixnum (best);
}

PRIM (p_min) { return extreme ("min", argc, argv, 0); }
PRIM (p_max) { return extreme ("max", argc, argv, 1); }

PRIM (p_number_to_string)
{
  UNUSED;
  char buf[32];
  int n = snprintf (buf, sizeof buf, "%ld",
                    (long) integer ("number->string", argv[0]));
  return make_string (buf, (size_t) n);
}

PRIM (p_string_to_number)
{
  UNUSED;
  const char *s = string ("string->number", argv[0])->chars;
  char *end;
  long long n = strtoll (s, &end, 10);
  if (*s == '\0' || *end != '\0' || isspace ((unsigned char) *s)
      || n > FIXNUM_MAX || n < FIXNUM_MIN)
    return FALSE;
  return make_fixnum ((intptr_t) n);
}

/* ---- predicates -------------------------------------------------------- */

PRIM (p_not) { UNUSED; return boolean (argv[0] == FALSE); }
PRIM (p_null) { UNUSED; return boolean (argv[0] == NIL); }
PRIM (p_pairp) { UNUSED; return boolean (is_pair (argv[0])); }
PRIM (p_listp) { UNUSED; return boolean (list_length (argv[0]) >= 0); }
PRIM (p_numberp) { UNUSED; return boolean (is_fixnum (argv[0])); }
PRIM (p_booleanp) { UNUSED; return boolean (argv[0] == TRUE || argv[0] == FALSE); }
PRIM (p_charp) { UNUSED; return boolean (is_char (argv[0])); }
PRIM (p_symbolp) { UNUSED; return boolean (has_type (argv[0], T_SYMBOL)); }
PRIM (p_stringp) { UNUSED; return boolean (has_type (argv[0], T_STRING)); }
PRIM (p_vectorp) { UNUSED; return boolean (has_type (argv[0], T_VECTOR)); }

PRIM (p_procedurep)
{
  UNUSED;
  return boolean (has_type (argv[0], T_CLOSURE)
                  || has_type (argv[0], T_PRIMITIVE));
}

PRIM (p_eq) { UNUSED; return boolean (argv[0] == argv[1]); }

static int
equal (obj a, obj b)
{
  check_stack (current_line);
  while (is_pair (a) && is_pair (b))
    {
      if (!equal (car (a), car (b)))
        return 0;
      a = cdr (a);
      b = cdr (b);
    }
  if (has_type (a, T_STRING) && has_type (b, T_STRING))
    return AS (string, a)->length == AS (string, b)->length
           && memcmp (AS (string, a)->chars, AS (string, b)->chars,
                      AS (string, a)->length) == 0;
  if (has_type (a, T_VECTOR) && has_type (b, T_VECTOR))
    {
      struct vector *v = AS (vector, a), *w = AS (vector, b);
      if (v->length != w->length)
        return 0;
      for (size_t i = 0; i < v->length; i++)
        if (!equal (v->items[i], w->items[i]))
          return 0;
      return 1;
    }
  return a == b;
}

PRIM (p_equal) { UNUSED; return boolean (equal (argv[0], argv[1])); }

/* ---- pairs and lists --------------------------------------------------- */

PRIM (p_cons) { UNUSED; return cons (argv[0], argv[1]); }
PRIM (p_car) { UNUSED; return car (pair ("car", argv[0])); }
PRIM (p_cdr) { UNUSED; return cdr (pair ("cdr", argv[0])); }
PRIM (p_cadr) { UNUSED; return car (pair ("cadr", cdr (pair ("cadr", argv[0])))); }
PRIM (p_cddr) { UNUSED; return cdr (pair ("cddr", cdr (pair ("cddr", argv[0])))); }
PRIM (p_caar) { UNUSED; return car (pair ("caar", car (pair ("caar", argv[0])))); }

PRIM (p_set_car)
{
  UNUSED;
  *car_ref (pair ("set-car!", argv[0])) = argv[1];
  return UNSPECIFIED;
}

PRIM (p_set_cdr)
{
  UNUSED;
  *cdr_ref (pair ("set-cdr!", argv[0])) = argv[1];
  return UNSPECIFIED;
}

/* A fresh list of the ARGC values at ARGV, ending in TAIL.  */
static obj
list_of (int argc, const obj *argv, obj tail)
{
  while (argc-- > 0)
    tail = cons (argv[argc], tail);
  return tail;
}

PRIM (p_list) { return list_of (argc, argv, NIL); }

PRIM (p_length)
{
  UNUSED;
  return make_fixnum (list_length (list ("length", argv[0])));
}

/* A fresh copy of LIST's spine, ending in TAIL.  */
static obj
copy_onto (obj list, obj tail)
{
  obj head = tail, *end = &head;
  for (; list != NIL; list = cdr (list))
    {
      *end = cons (car (list), tail);
      end = cdr_ref (*end);
    }
  return head;
}

PRIM (p_append)
{
  if (argc == 0)
    return NIL;
  obj result = argv[argc - 1];
  for (int i = argc - 1; i-- > 0;)
    result = copy_onto (list ("append", argv[i]), result);
  return result;
}

PRIM (p_reverse)
{
  UNUSED;
  obj r = NIL;
  for (obj l = list ("reverse", argv[0]); l != NIL; l = cdr (l))
    r = cons (car (l), r);
  return r;
}

/* The tail of LIST past K pairs.  */
static obj
tail_of (const char *who, obj list, obj k)
{
  intptr_t n = integer (who, k);
  if (n < 0)
    error (current_line, "%s: negative index %ld", who, (long) n);
  for (; n > 0; n--)
    list = cdr (pair (who, list));
  return list;
}

PRIM (p_list_tail) { UNUSED; return tail_of ("list-tail", argv[0], argv[1]); }

PRIM (p_list_ref)
{
  UNUSED;
  return car (pair ("list-ref", tail_of ("list-ref", argv[0], argv[1])));
}

/* memq and member: the first tail of list L whose car is X; and with
   ALIST, assq and assoc: the first pair of L whose car is X.  */
static obj
search (const char *who, obj x, obj l, int by_equal, int alist)
{
  for (l = list (who, l); l != NIL; l = cdr (l))
    {
      obj item = alist ? car (pair (who, car (l))) : car (l);
      if (by_equal ? equal (x, item) : x == item)
        return alist ? car (l) : l;
    }
  return FALSE;
}

PRIM (p_memq) { UNUSED; return search ("memq", argv[0], argv[1], 0, 0); }
PRIM (p_member) { UNUSED; return search ("member", argv[0], argv[1], 1, 0); }
PRIM (p_assq) { UNUSED; return search ("assq", argv[0], argv[1], 0, 1); }
PRIM (p_assoc) { UNUSED; return search ("assoc", argv[0], argv[1], 1, 1); }

/* map and for-each over one or more lists, as long as the shortest.  */
static obj
map (const char *who, int argc, obj *argv, int collect)
{
  obj f = argv[0], head = NIL, *end = &head;
  int n = argc - 1;
  obj lists[n], args[n];
  for (int i = 0; i < n; i++)
    lists[i] = list (who, argv[i + 1]);
  for (;;)
    {
      for (int i = 0; i < n; i++)
        {
          if (!is_pair (lists[i]))     /* F may have cut it short */
            return collect ? head : UNSPECIFIED;
          args[i] = car (lists[i]);
          lists[i] = cdr (lists[i]);
        }
      obj v = apply (f, n, args);
      if (collect)
        {
          *end = cons (v, NIL);
          end = cdr_ref (*end);
        }
    }
}

PRIM (p_map) { return map ("map", argc, argv, 1); }
PRIM (p_for_each) { return map ("for-each", argc, argv, 0); }

/* (apply F ARG... LIST): the arguments in a heap block, which a long
   list would not fit on the C stack.  Not a tail call.  */
PRIM (p_apply)
{
  obj args = list_of (argc - 2, argv + 1, list ("apply", argv[argc - 1]));
  long n = list_length (args);
  if (n > INT_MAX / 2)
    error (current_line, "apply: too many arguments (%ld)", n);
  obj *flat = vm_alloc ((size_t) (n + 1) * sizeof *flat);
  for (long i = 0; i < n; i++, args = cdr (args))
    flat[i] = car (args);
  return apply (argv[0], (int) n, flat);
}

/* ---- vectors ----------------------------------------------------------- */

PRIM (p_vector)
{
  obj v = make_vector ((size_t) argc, UNSPECIFIED);
  memcpy (AS (vector, v)->items, argv, (size_t) argc * sizeof *argv);
  return v;
}

/* A length of at most MAX for a new object.  */
static size_t
new_length (const char *who, obj n, size_t max)
{
  intptr_t length = integer (who, n);
  if (length < 0 || (size_t) length > max)
    error (current_line, "%s: bad length %ld", who, (long) length);
  return (size_t) length;
}

PRIM (p_make_vector)
{
  size_t n = new_length ("make-vector", argv[0], (size_t) 1 << 28);
  return make_vector (n, argc > 1 ? argv[1] : FALSE);
}

PRIM (p_vector_length)
{
  UNUSED;
  return make_fixnum ((intptr_t) vector ("vector-length", argv[0])->length);
}

PRIM (p_vector_ref)
{
  UNUSED;
  struct vector *v = vector ("vector-ref", argv[0]);
  return v->items[index_in ("vector-ref", argv[1], v->length)];
}

PRIM (p_vector_set)
{
  UNUSED;
  struct vector *v = vector ("vector-set!", argv[0]);
  v->items[index_in ("vector-set!", argv[1], v->length)] = argv[2];
  return UNSPECIFIED;
}

PRIM (p_vector_fill)
{
  UNUSED;
  struct vector *v = vector ("vector-fill!", argv[0]);
  for (size_t i = 0; i < v->length; i++)
    v->items[i] = argv[1];
  return UNSPECIFIED;
}

PRIM (p_vector_to_list)
{
  UNUSED;
  struct vector *v = vector ("vector->list", argv[0]);
  return list_of ((int) v->length, v->items, NIL);
}

PRIM (p_list_to_vector)
{
  UNUSED;
  obj l = list ("list->vector", argv[0]);
  obj v = make_vector ((size_t) list_length (l), UNSPECIFIED);
  for (size_t i = 0; l != NIL; l = cdr (l), i++)
    AS (vector, v)->items[i] = car (l);
  return v;
}

/* ---- strings and characters -------------------------------------------- */

static int
character (const char *who, obj x)
{
  if (!is_char (x))
    type_error (who, "a character", x);
  return char_value (x);
}

PRIM (p_make_string)
{
  size_t n = new_length ("make-string", argv[0], (size_t) 1 << 30);
  obj s = make_string (NULL, n);
  if (argc > 1)
    memset (AS (string, s)->chars, character ("make-string", argv[1]), n);
  return s;
}

PRIM (p_string_length)
{
  UNUSED;
  return make_fixnum ((intptr_t) string ("string-length", argv[0])->length);
}

PRIM (p_string_ref)
{
  UNUSED;
  struct string *s = string ("string-ref", argv[0]);
  return make_char ((unsigned char) s->chars[index_in ("string-ref", argv[1],
                                                       s->length)]);
}

PRIM (p_string_set)
{
  UNUSED;
  struct string *s = string ("string-set!", argv[0]);
  s->chars[index_in ("string-set!", argv[1], s->length)]
    = (char) character ("string-set!", argv[2]);
  return UNSPECIFIED;
}

PRIM (p_string_append)
{
  size_t n = 0;
  for (int i = 0; i < argc; i++)
    n += string ("string-append", argv[i])->length;
  obj s = make_string (NULL, n);
  char *p = AS (string, s)->chars;
  for (int i = 0; i < argc; i++)
    {
      memcpy (p, AS (string, argv[i])->chars, AS (string, argv[i])->length);
      p += AS (string, argv[i])->length;
    }
  return s;
}

PRIM (p_substring)
{
  struct string *s = string ("substring", argv[0]);
  size_t start = index_in ("substring", argv[1], s->length + 1);
  size_t end = argc > 2 ? index_in ("substring", argv[2], s->length + 1)
                        : s->length;
  if (end < start)
    error (current_line, "substring: end %zu before start %zu", end, start);
  return make_string (s->chars + start, end - start);
}

PRIM (p_string_copy)
{
  UNUSED;
  struct string *s = string ("string-copy", argv[0]);
  return make_string (s->chars, s->length);
}

/* string=? and string<? */
static int
string_compare (const char *who, obj a, obj b)
{
  struct string *s = string (who, a), *t = string (who, b);
  int c = memcmp (s->chars, t->chars, s->length < t->length ? s->length
                                                          : t->length);
  return c ? c : (s->length > t->length) - (s->length < t->length);
}

PRIM (p_string_eq) { UNUSED; return boolean (string_compare ("string=?", argv[0], argv[1]) == 0); }
PRIM (p_string_lt) { UNUSED; return boolean (string_compare ("string<?", argv[0], argv[1]) < 0); }

PRIM (p_string_to_symbol)
{
  UNUSED;
  return intern (string ("string->symbol", argv[0])->chars);
}

PRIM (p_symbol_to_string)
{
  UNUSED;
  if (!has_type (argv[0], T_SYMBOL))
    type_error ("symbol->string", "a symbol", argv[0]);
  const char *name = AS (symbol, argv[0])->name;
  return make_string (name, strlen (name));
}

PRIM (p_string_to_list)
{
  UNUSED;
  struct string *s = string ("string->list", argv[0]);
  obj l = NIL;
  for (size_t i = s->length; i-- > 0;)
    l = cons (make_char ((unsigned char) s->chars[i]), l);
  return l;
}

PRIM (p_list_to_string)
{
  UNUSED;
  obj l = list ("list->string", argv[0]);
  obj s = make_string (NULL, (size_t) list_length (l));
  for (size_t i = 0; l != NIL; l = cdr (l), i++)
    AS (string, s)->chars[i] = (char) character ("list->string", car (l));
  return s;
}

PRIM (p_string)
{
  obj s = make_string (NULL, (size_t) argc);
  for (int i = 0; i < argc; i++)
    AS (string, s)->chars[i] = (char) character ("string", argv[i]);
  return s;
}

PRIM (p_char_to_integer)
{
  UNUSED;
  return make_fixnum (character ("char->integer", argv[0]));
}

PRIM (p_integer_to_char)
{
  UNUSED;
  intptr_t n = integer ("integer->char", argv[0]);
  if (n < 0 || n > UCHAR_MAX)
    error (current_line, "integer->char: %ld is not a character code",
           (long) n);
  return make_char ((int) n);
}

/* ---- output and the rest ----------------------------------------------- */

PRIM (p_display) { UNUSED; print (stdout, argv[0], 0); return UNSPECIFIED; }
PRIM (p_write) { UNUSED; print (stdout, argv[0], 1); return UNSPECIFIED; }

PRIM (p_newline)
{
  UNUSED;
  (void) argv;
  putchar ('\n');
  return UNSPECIFIED;
}

/* (error MESSAGE IRRITANT...) */
PRIM (p_error)
{
  char text[512];
  size_t n = 0;
  const char *message = has_type (argv[0], T_STRING)
                        ? AS (string, argv[0])->chars : repr (argv[0]);
  n += (size_t) snprintf (text, sizeof text, "%s", message);
  for (int i = 1; i < argc && n < sizeof text; i++)
    n += (size_t) snprintf (text + n, sizeof text - n, " %s", repr (argv[i]));
  error (current_line, "%s", text);
}

PRIM (p_exit)
{
  fflush (stdout);
  exit (argc ? (int) integer ("exit", argv[0]) : 0);
}

static const struct
{
  const char *name;
  primitive_fn fn;
  int min, max;
} table[] = {
  { "+", p_add, 0, -1 }, { "-", p_sub, 1, -1 }, { "*", p_mul, 0, -1 },
  { "quotient", p_quotient, 2, 2 }, { "remainder", p_remainder, 2, 2 },
  { "modulo", p_modulo, 2, 2 }, { "=", p_eq_num, 1, -1 },
  { "<", p_lt, 1, -1 }, { ">", p_gt, 1, -1 }, { "<=", p_le, 1, -1 },
  { ">=", p_ge, 1, -1 }, { "zero?", p_zero, 1, 1 },
  { "even?", p_even, 1, 1 }, { "odd?", p_odd, 1, 1 },
  { "abs", p_abs, 1, 1 }, { "min", p_min, 1, -1 }, { "max", p_max, 1, -1 },
  { "number->string", p_number_to_string, 1, 1 },
  { "string->number", p_string_to_number, 1, 1 },
  { "not", p_not, 1, 1 }, { "null?", p_null, 1, 1 },
  { "pair?", p_pairp, 1, 1 }, { "list?", p_listp, 1, 1 },
  { "number?", p_numberp, 1, 1 }, { "integer?", p_numberp, 1, 1 },
  { "boolean?", p_booleanp, 1, 1 }, { "char?", p_charp, 1, 1 },
  { "symbol?", p_symbolp, 1, 1 }, { "string?", p_stringp, 1, 1 },
  { "vector?", p_vectorp, 1, 1 }, { "procedure?", p_procedurep, 1, 1 },
  { "eq?", p_eq, 2, 2 }, { "eqv?", p_eq, 2, 2 }, { "equal?", p_equal, 2, 2 },
  { "cons", p_cons, 2, 2 }, { "car", p_car, 1, 1 }, { "cdr", p_cdr, 1, 1 },
  { "cadr", p_cadr, 1, 1 }, { "cddr", p_cddr, 1, 1 },
  { "caar", p_caar, 1, 1 }, { "set-car!", p_set_car, 2, 2 },
  { "set-cdr!", p_set_cdr, 2, 2 }, { "list", p_list, 0, -1 },
  { "length", p_length, 1, 1 }, { "append", p_append, 0, -1 },
  { "reverse", p_reverse, 1, 1 }, { "list-tail", p_list_tail, 2, 2 },
  { "list-ref", p_list_ref, 2, 2 }, { "memq", p_memq, 2, 2 },
  { "member", p_member, 2, 2 }, { "assq", p_assq, 2, 2 },
  { "assoc", p_assoc, 2, 2 }, { "map", p_map, 2, -1 },
  { "for-each", p_for_each, 2, -1 }, { "apply", p_apply, 2, -1 },
  { "vector", p_vector, 0, -1 }, { "make-vector", p_make_vector, 1, 2 },
  { "vector-length", p_vector_length, 1, 1 },
  { "vector-ref", p_vector_ref, 2, 2 }, { "vector-set!", p_vector_set, 3, 3 },
  { "vector-fill!", p_vector_fill, 2, 2 },
  { "vector->list", p_vector_to_list, 1, 1 },
  { "list->vector", p_list_to_vector, 1, 1 },
  { "make-string", p_make_string, 1, 2 },
  { "string-length", p_string_length, 1, 1 },
  { "string-ref", p_string_ref, 2, 2 }, { "string-set!", p_string_set, 3, 3 },
  { "string-append", p_string_append, 0, -1 },
  { "substring", p_substring, 2, 3 }, { "string-copy", p_string_copy, 1, 1 },
  { "string=?", p_string_eq, 2, 2 }, { "string<?", p_string_lt, 2, 2 },
  { "string->symbol", p_string_to_symbol, 1, 1 },
  { "symbol->string", p_symbol_to_string, 1, 1 },
  { "string->list", p_string_to_list, 1, 1 },
  { "list->string", p_list_to_string, 1, 1 }, { "string", p_string, 0, -1 },
  { "char->integer", p_char_to_integer, 1, 1 },
  { "integer->char", p_integer_to_char, 1, 1 },
  { "display", p_display, 1, 1 }, { "write", p_write, 1, 1 },
  { "newline", p_newline, 0, 0 }, { "error", p_error, 1, -1 },
  { "exit", p_exit, 0, 1 },
};

void
define_primitives (void)
{
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    AS (symbol, intern (table[i].name))->value
      = make_primitive (table[i].name, table[i].fn, table[i].min,
                        table[i].max);
}
