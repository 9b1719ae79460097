/* compile.c -- from a datum to the tree of nodes eval.c runs.

   Variables are resolved here, once: a name bound by an enclosing lambda
   or let becomes (depth, index) in the chain of frames, any other name a
   global, which is the symbol's value cell.  A body's internal defines
   get slots of its frame, so `define' inside a body is an assignment.
   The core forms are quote, if, define, set!, lambda, begin, let, letrec
   (and letrec*), and, or; let*, named let, cond, when and unless are
   rewritten into them first, with keywords of their own (" if", ...),
   which no program can write and so none can rebind.  Bad syntax is an
   error at the form's line.  The parts that recurse on the depth of the
   source check the C stack.  */

#include <gc.h>
#include <string.h>
#include "node.h"

/* The variables of one frame being compiled: NAMES is a list of
   symbols, the first at slot 0.  */
struct scope
{
  const struct scope *parent;
  obj names;
  int n;
};

static const struct node *compile_in (obj x, struct scope *s, int line);

static struct node *
new_node (enum node_kind kind, int line)
{
  struct node *n = vm_alloc (sizeof *n);
  n->kind = kind;
  n->line = line;
  return n;
}

static obj
list2 (obj a, obj b)
{
  return cons (a, cons (b, NIL));
}

static obj
list3 (obj a, obj b, obj c)
{
  return cons (a, list2 (b, c));
}

static _Noreturn void
bad_syntax (int line, const char *form, const char *usage)
{
  error (line, "bad syntax in %s: expected %s", form, usage);
}

/* The slot of SYMBOL in S (0 if it is the first), or -1.  */
static int
slot_in (const struct scope *s, obj symbol)
{
  int i = 0;
  for (obj l = s->names; l != NIL; l = cdr (l), i++)
    if (car (l) == symbol)
      return i;
  return -1;
}

static void
add_name (struct scope *s, obj symbol)
{
  if (slot_in (s, symbol) >= 0)
    return;
  obj *end = &s->names;
  while (*end != NIL)
    end = cdr_ref (*end);
  *end = cons (symbol, NIL);
  s->n++;
}

/* Where SYMBOL is in S and its parents: 0 and *DEPTH, *INDEX, or -1 if
   it is global.  */
static int
resolve (const struct scope *s, obj symbol, int *depth, int *index)
{
  for (*depth = 0; s; s = s->parent, ++*depth)
    if ((*index = slot_in (s, symbol)) >= 0)
      return 0;
  return -1;
}

static const struct node *
constant (obj value, int line)
{
  struct node *n = new_node (N_CONST, line);
  n->value = value;
  return n;
}

/* A node of kind LOCAL or GLOBAL, as SYMBOL is in S.  */
static struct node *
variable (obj symbol, const struct scope *s, int line, enum node_kind local,
          enum node_kind global)
{
  int depth, index;
  int is_local = resolve (s, symbol, &depth, &index) == 0;
  struct node *n = new_node (is_local ? local : global, line);
  n->value = symbol;
  n->depth = depth;
  n->index = index;
  return n;
}

/* The N_SEQ (or single node) of the forms of list BODY.  */
static const struct node *
sequence (enum node_kind kind, obj body, struct scope *s, int line)
{
  long count = list_length (body);
  if (count == 1)
    return compile_in (car (body), s, line);
  struct node *n = new_node (kind, line);
  n->n_items = (int) count;
  n->items = vm_alloc ((size_t) count * sizeof *n->items);
  for (long i = 0; i < count; i++, body = cdr (body))
    n->items[i] = compile_in (car (body), s, line);
  return n;
}

static obj s_define, s_else;
static obj s_lambda, s_let, s_let_star, s_letrec, s_if, s_begin, s_or;

/* BODY, a non-empty list of forms, in S, after giving a slot of S's
   frame to each name BODY defines.  */
static const struct node *
body (obj forms, struct scope *s, int line, const char *form)
{
  if (forms == NIL || list_length (forms) < 0)
    bad_syntax (line, form, "a body of one or more expressions");
  for (obj l = forms; l != NIL; l = cdr (l))
    {
      obj x = car (l);
      if (is_pair (x) && car (x) == s_define && is_pair (cdr (x)))
        {
          obj target = car (cdr (x));
          if (is_pair (target))
            target = car (target);
          if (has_type (target, T_SYMBOL))
            add_name (s, target);
        }
    }
  return sequence (N_SEQ, forms, s, line);
}

/* PARAMS, a lambda list, into S: the names, and whether the last one
   takes the rest of the arguments.  */
static void
parameters (obj params, struct scope *s, int *rest, int line)
{
  for (; is_pair (params); params = cdr (params))
    {
      if (!has_type (car (params), T_SYMBOL) || slot_in (s, car (params)) >= 0)
        bad_syntax (line, "lambda", "distinct symbols as parameters");
      add_name (s, car (params));
    }
  *rest = params != NIL;
  if (*rest && !has_type (params, T_SYMBOL))
    bad_syntax (line, "lambda", "a symbol after the '.' of the parameters");
  if (*rest)
    add_name (s, params);
}

/* The file being compiled, for the nodes that say where they are.  */
static const char *source_file;

static const struct node *
lambda (obj params, obj forms, obj name, const struct scope *s, int line)
{
  struct scope inner = { s, NIL, 0 };
  struct node *n = new_node (N_LAMBDA, line);
  parameters (params, &inner, &n->rest, line);
  n->params = inner.n - n->rest;
  n->value = name;
  n->origin = profile_origin (name != FALSE ? AS (symbol, name)->name
                                            : "lambda", source_file, line);
  n->a = body (forms, &inner, line, "lambda");
  n->slots = inner.n;
  return n;
}

/* X, the value of a binding of NAME in S: a lambda is named after it,
   unless `lambda' is a variable there.  */
static const struct node *
named_value (obj x, obj name, struct scope *s, int line)
{
  int depth, index;
  obj head = is_pair (x) ? car (x) : NIL;
  if ((head == s_lambda || head == intern ("lambda"))
      && resolve (s, head, &depth, &index) != 0 && list_length (x) >= 3)
    return lambda (car (cdr (x)), cdr (cdr (x)), name, s, line);
  return compile_in (x, s, line);
}

/* ---- the core forms ---------------------------------------------------- */

static const struct node *
c_quote (obj x, struct scope *s, int line)
{
  (void) s;
  if (list_length (x) != 2)
    bad_syntax (line, "quote", "(quote DATUM)");
  return constant (car (cdr (x)), line);
}

static const struct node *
c_if (obj x, struct scope *s, int line)
{
  long n = list_length (x);
  if (n != 3 && n != 4)
    bad_syntax (line, "if", "(if TEST THEN [ELSE])");
  struct node *node = new_node (N_IF, line);
  x = cdr (x);
  node->a = compile_in (car (x), s, line);
  node->b = compile_in (car (cdr (x)), s, line);
  node->c = n == 4 ? compile_in (car (cdr (cdr (x))), s, line)
                   : constant (UNSPECIFIED, line);
  return node;
}

/* (define NAME EXPR) and (define (NAME . PARAMS) BODY...): a global at
   the top level, else a slot that `body' made.  */
static const struct node *
c_define (obj x, struct scope *s, int line)
{
  if (list_length (x) < 3)
    bad_syntax (line, "define", "(define NAME EXPR) or (define (NAME ARGS...) BODY...)");
  obj target = car (cdr (x));
  const struct node *value;
  if (is_pair (target))
    {
      obj name = car (target);
      if (!has_type (name, T_SYMBOL))
        bad_syntax (line, "define", "a symbol as the name");
      value = lambda (cdr (target), cdr (cdr (x)), name, s, line);
      target = name;
    }
  else if (!has_type (target, T_SYMBOL) || list_length (x) != 3)
    bad_syntax (line, "define", "(define NAME EXPR)");
  else
    value = named_value (car (cdr (cdr (x))), target, s, line);
  if (s && slot_in (s, target) < 0)
    error (line, "bad syntax in define: only allowed at the top level or "
           "directly in a body");
  struct node *n = new_node (s ? N_SET_LOCAL : N_DEFINE, line);
  n->value = target;
  n->index = s ? slot_in (s, target) : 0;
  n->a = value;
  return n;
}

static const struct node *
c_set (obj x, struct scope *s, int line)
{
  if (list_length (x) != 3 || !has_type (car (cdr (x)), T_SYMBOL))
    bad_syntax (line, "set!", "(set! NAME EXPR)");
  struct node *n = variable (car (cdr (x)), s, line, N_SET_LOCAL,
                            N_SET_GLOBAL);
  n->a = compile_in (car (cdr (cdr (x))), s, line);
  return n;
}

static const struct node *
c_lambda (obj x, struct scope *s, int line)
{
  if (list_length (x) < 3)
    bad_syntax (line, "lambda", "(lambda PARAMS BODY...)");
  return lambda (car (cdr (x)), cdr (cdr (x)), FALSE, s, line);
}

static const struct node *
c_begin (obj x, struct scope *s, int line)
{
  if (cdr (x) == NIL || list_length (x) < 0)
    bad_syntax (line, "begin", "(begin EXPR...)");
  return sequence (N_SEQ, cdr (x), s, line);
}

static const struct node *
logic (obj x, struct scope *s, int line, enum node_kind kind, obj empty)
{
  if (list_length (x) < 0)
    bad_syntax (line, kind == N_AND ? "and" : "or", "a list of expressions");
  if (cdr (x) == NIL)
    return constant (empty, line);
  return sequence (kind, cdr (x), s, line);
}

static const struct node *
c_and (obj x, struct scope *s, int line)
{
  return logic (x, s, line, N_AND, TRUE);
}

static const struct node *
c_or (obj x, struct scope *s, int line)
{
  return logic (x, s, line, N_OR, FALSE);
}

static void
check_binding (obj binding, int line, const char *form)
{
  if (list_length (binding) != 2 || !has_type (car (binding), T_SYMBOL))
    bad_syntax (line, form, "bindings (NAME INIT) of distinct names");
}

/* (let ((NAME INIT)...) BODY...), and with REC, letrec: the inits are
   evaluated in the new frame, in order (letrec*).  */
static const struct node *
let (obj x, struct scope *s, int line, int rec, const char *form)
{
  long length = list_length (x);
  obj bindings = length >= 3 ? car (cdr (x)) : NIL;
  if (length < 3
      || list_length (bindings) < 0)
    bad_syntax (line, form, "((NAME INIT)...) and a body");
  struct scope inner = { s, NIL, 0 };
  struct node *n = new_node (N_LET, line);
  n->rec = rec;
  n->n_items = (int) list_length (bindings);
  /* One more than needed: GC_MALLOC (0) may give NULL.  */
  n->items = vm_alloc ((size_t) (n->n_items + 1) * sizeof *n->items);
  for (obj b = bindings; b != NIL; b = cdr (b))
    {
      obj binding = car (b);
      check_binding (binding, line, form);
      if (slot_in (&inner, car (binding)) >= 0)
        bad_syntax (line, form, "bindings (NAME INIT) of distinct names");
      add_name (&inner, car (binding));
    }
  int i = 0;
  for (obj b = bindings; b != NIL; b = cdr (b))
    n->items[i++] = named_value (car (cdr (car (b))), car (car (b)),
                                 rec ? &inner : s, line);
  n->a = body (cdr (cdr (x)), &inner, line, form);
  n->slots = inner.n;
  return n;
}

static const struct node *
c_letrec (obj x, struct scope *s, int line)
{
  return let (x, s, line, 1, "letrec");
}

/* ---- derived forms ----------------------------------------------------- */

/* (let NAME ((VAR INIT)...) BODY...) is
   ((letrec ((NAME (lambda (VAR...) BODY...))) NAME) INIT...).  */
static const struct node *
named_let (obj x, struct scope *s, int line)
{
  long length = list_length (x);
  if (length < 4
      || list_length (car (cdr (cdr (x)))) < 0)
    bad_syntax (line, "let", "(let NAME ((VAR INIT)...) BODY...)");
  obj name = car (cdr (x)), bindings = car (cdr (cdr (x)));
  obj vars = NIL, inits = NIL, *v = &vars, *i = &inits;
  for (; bindings != NIL; bindings = cdr (bindings))
    {
      obj b = car (bindings);
      check_binding (b, line, "let");
      *v = cons (car (b), NIL);
      v = cdr_ref (*v);
      *i = cons (car (cdr (b)), NIL);
      i = cdr_ref (*i);
    }
  obj fn = cons (s_lambda, cons (vars, cdr (cdr (cdr (x)))));
  obj loop = list3 (s_letrec, cons (list2 (name, fn), NIL), name);
  return compile_in (cons (loop, inits), s, line);
}

static const struct node *
c_let (obj x, struct scope *s, int line)
{
  if (is_pair (cdr (x)) && has_type (car (cdr (x)), T_SYMBOL))
    return named_let (x, s, line);
  return let (x, s, line, 0, "let");
}

/* (let* (B1 B2...) BODY...) is (let (B1) (let* (B2...) BODY...)).  */
static const struct node *
c_let_star (obj x, struct scope *s, int line)
{
  long length = list_length (x);
  obj bindings = length >= 3 ? car (cdr (x)) : NIL;
  if (length < 3
      || list_length (bindings) < 0)
    bad_syntax (line, "let*", "((NAME INIT)...) and a body");
  if (bindings == NIL || cdr (bindings) == NIL)
    return let (x, s, line, 0, "let*");
  obj rest = cons (s_let_star, cons (cdr (bindings), cdr (cdr (x))));
  return compile_in (list3 (s_let, cons (car (bindings), NIL), rest), s,
                     line);
}

/* (cond (TEST BODY...)... [(else BODY...)]) is nested ifs; a clause of
   a test alone gives the test's value: (or TEST rest); and (TEST => F)
   is (let ((v TEST)) (if v (F v) rest)), V a name no program can
   write.  */
static obj
cond_to_if (obj clauses, int line)
{
  check_stack (line);
  if (clauses == NIL)
    return UNSPECIFIED;
  obj clause = car (clauses);
  if (list_length (clause) < 0 || clause == NIL)
    bad_syntax (line, "cond", "clauses (TEST BODY...)");
  obj rest = cdr (clauses);
  if (car (clause) == s_else)
    {
      if (rest != NIL || cdr (clause) == NIL)
        bad_syntax (line, "cond", "(else BODY...) as the last clause");
      return cons (s_begin, cdr (clause));
    }
  obj next = cond_to_if (rest, line);
  if (cdr (clause) == NIL)
    return list3 (s_or, car (clause), next);
  if (car (cdr (clause)) == intern ("=>"))
    {
      obj v = intern (" cond value");
      if (list_length (clause) != 3)
        bad_syntax (line, "cond", "(TEST => PROCEDURE)");
      obj test = cons (s_if, list3 (v, list2 (car (cdr (cdr (clause))), v),
                                    next));
      return list3 (s_let, cons (list2 (v, car (clause)), NIL), test);
    }
  return cons (s_if, list3 (car (clause), cons (s_begin, cdr (clause)),
                            next));
}

static const struct node *
c_cond (obj x, struct scope *s, int line)
{
  if (list_length (x) < 0)
    bad_syntax (line, "cond", "clauses (TEST BODY...)");
  return compile_in (cond_to_if (cdr (x), line), s, line);
}

/* (when TEST BODY...) and (unless TEST BODY...).  */
static const struct node *
guarded (obj x, struct scope *s, int line, int when)
{
  if (list_length (x) < 3)
    bad_syntax (line, when ? "when" : "unless", "a test and a body");
  obj then = cons (s_begin, cdr (cdr (x)));
  obj form = when ? list3 (s_if, car (cdr (x)), then)
                  : cons (s_if, list3 (car (cdr (x)), UNSPECIFIED, then));
  return compile_in (form, s, line);
}

static const struct node *
c_when (obj x, struct scope *s, int line)
{
  return guarded (x, s, line, 1);
}

static const struct node *
c_unless (obj x, struct scope *s, int line)
{
  return guarded (x, s, line, 0);
}

/* ---- dispatch ---------------------------------------------------------- */

static const struct
{
  const char *name;
  const struct node *(*compile) (obj x, struct scope *s, int line);
} forms[] = {
  { "quote", c_quote }, { "if", c_if }, { "define", c_define },
  { "set!", c_set }, { "lambda", c_lambda }, { "begin", c_begin },
  { "let", c_let }, { "let*", c_let_star }, { "letrec", c_letrec },
  { "letrec*", c_letrec }, { "and", c_and }, { "or", c_or },
  { "cond", c_cond }, { "when", c_when }, { "unless", c_unless },
  /* the keywords of the rewritten forms */
  { " if", c_if }, { " lambda", c_lambda }, { " begin", c_begin },
  { " let", c_let }, { " let*", c_let_star }, { " letrec", c_letrec },
  { " or", c_or },
};

#define N_FORMS (sizeof forms / sizeof *forms)
static obj form_symbols[N_FORMS];

static const struct node *
call (obj x, struct scope *s, int line)
{
  if (list_length (x) < 0)
    error (line, "bad syntax: a call must be a proper list");
  if (cdr (x) != NIL)
    return sequence (N_CALL, x, s, line);
  struct node *n = new_node (N_CALL, line);     /* (f): no `sequence' */
  n->n_items = 1;
  n->items = vm_alloc (sizeof *n->items);
  n->items[0] = compile_in (car (x), s, line);
  return n;
}

static const struct node *
compile_in (obj x, struct scope *s, int line)
{
  if (is_pair (x) && source_line (x))
    line = source_line (x);
  check_stack (line);
  if (has_type (x, T_SYMBOL))
    return variable (x, s, line, N_LOCAL, N_GLOBAL);
  if (x == NIL)
    error (line, "bad syntax: () is not an expression");
  if (!is_pair (x))
    return constant (x, line);
  obj head = car (x);
  int depth, index;
  if (has_type (head, T_SYMBOL) && resolve (s, head, &depth, &index) != 0)
    for (size_t i = 0; i < N_FORMS; i++)
      if (form_symbols[i] == head)
        return forms[i].compile (x, s, line);
  return call (x, s, line);
}

const struct node *
compile (obj x, const char *file, int line)
{
  if (form_symbols[0] == 0)
    {
      for (size_t i = 0; i < N_FORMS; i++)
        form_symbols[i] = intern (forms[i].name);
      s_define = intern ("define");
      s_else = intern ("else");
      s_lambda = intern (" lambda");
      s_let = intern (" let");
      s_let_star = intern (" let*");
      s_letrec = intern (" letrec");
      s_if = intern (" if");
      s_begin = intern (" begin");
      s_or = intern (" or");
    }
  source_file = file;
  /* The form runs as a procedure of its own, for memprof: a sequence
     of one, which says where it is.  */
  struct node *top = new_node (N_SEQ, line);
  top->items = vm_alloc (sizeof *top->items);
  top->items[0] = compile_in (x, NULL, line);
  top->n_items = 1;
  top->origin = profile_origin (NULL, file, line);
  return top;
}
