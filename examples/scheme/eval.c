/* eval.c -- running the nodes of compile.c.

   `exec' runs a node in a frame.  Whatever is in tail position -- the
   branch of an if, the last of a sequence, of and/or, a let's body, a
   called closure's body -- is not run by a recursive call but by the
   loop going round with the new node and frame, so a loop written as
   tail calls runs in constant C stack.  Other calls nest, and the depth
   of the C stack is checked against its limit, so deep recursion is an
   error rather than a crash.  A call allocates the callee's frame;
   arguments are first gathered on the C stack.

   Each C activation of exec is on a list of its own (struct
   activation), with the procedure whose body it runs, if it entered
   one: the VM's stack of Scheme procedures, for memprof's frame
   provider (profile.c).  A tail call replaces the activation's
   procedure, as it replaces the Scheme frame.  */

#define _POSIX_C_SOURCE 200809L  /* getrlimit */
#include <string.h>
#include <sys/resource.h>
#include "node.h"

int current_line;

/* The C stack: where it starts (main's frame) and how far it may go.
   Linux grows the main thread's stack up to the current RLIMIT_STACK,
   read at each fault, and keeps at least 128 MiB free below it for
   that; so the VM raises its soft limit to WANTED_STACK (at most the
   hard limit), room for some 10^5 nested non-tail calls.  */
#define WANTED_STACK ((rlim_t) 64 << 20)
static char *stack_base;
static size_t stack_room;

void
eval_init (void *base)
{
  struct rlimit r;
  rlim_t limit = (rlim_t) 8 << 20;
  if (getrlimit (RLIMIT_STACK, &r) == 0)
    {
      if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur < WANTED_STACK)
        {
          rlim_t old = r.rlim_cur;
          r.rlim_cur = r.rlim_max != RLIM_INFINITY && r.rlim_max < WANTED_STACK
                       ? r.rlim_max : WANTED_STACK;
          if (setrlimit (RLIMIT_STACK, &r) != 0)
            r.rlim_cur = old;
        }
      limit = r.rlim_cur == RLIM_INFINITY || r.rlim_cur > WANTED_STACK
              ? WANTED_STACK : r.rlim_cur;
    }
  stack_base = base;
  stack_room = (size_t) (limit - limit / 8);  /* for C's own frames */
}

static _Noreturn void
arity_error (obj f, int argc)
{
  const char *name = "#<procedure>";
  int min, max;
  if (has_type (f, T_PRIMITIVE))
    {
      name = AS (primitive, f)->name;
      min = AS (primitive, f)->min_args;
      max = AS (primitive, f)->max_args;
    }
  else
    {
      const struct node *l = AS (closure, f)->lambda;
      if (l->value != FALSE)
        name = AS (symbol, l->value)->name;
      min = l->params;
      max = l->rest ? -1 : l->params;
    }
  if (max < 0)
    error (current_line, "%s: wrong number of arguments: expected at "
           "least %d, got %d", name, min, argc);
  error (current_line, "%s: wrong number of arguments: expected %d, got %d",
         name, min, argc);
}

/* The frame of a call of closure C on ARGC arguments in ARGV.  */
static struct frame *
enter (obj c, int argc, const obj *argv)
{
  const struct node *l = AS (closure, c)->lambda;
  if (argc < l->params || (argc > l->params && !l->rest))
    arity_error (c, argc);
  struct frame *f = make_frame (AS (closure, c)->env, (size_t) l->slots);
  memcpy (f->slots, argv, (size_t) l->params * sizeof *argv);
  int i = l->params;
  if (l->rest)
    {
      obj rest = NIL;
      for (int k = argc; k-- > l->params;)
        rest = cons (argv[k], rest);
      f->slots[i++] = rest;
    }
  for (; i < l->slots; i++)
    f->slots[i] = UNBOUND;
  return f;
}

static obj
call_primitive (obj p, int argc, obj *argv)
{
  const struct primitive *prim = AS (primitive, p);
  if (argc < prim->min_args || (prim->max_args >= 0 && argc > prim->max_args))
    arity_error (p, argc);
  return prim->fn (argc, argv);
}

static obj *
local (const struct node *n, struct frame *env)
{
  for (int d = n->depth; d > 0; d--)
    env = env->parent;
  return &env->slots[n->index];
}

static obj
checked (obj v, const struct node *n)
{
  if (v == UNBOUND)
    error (n->line, n->kind == N_GLOBAL || n->kind == N_SET_GLOBAL
           ? "unbound variable: %s" : "variable used before its definition: %s",
           AS (symbol, n->value)->name);
  return v;
}

static _Noreturn void
not_a_procedure (obj f, int line)
{
  current_line = line;
  type_error ("call", "a procedure", f);
}

void
check_stack (int line)
{
  char here;
  if ((size_t) (stack_base - &here) > stack_room)
    error (line, "recursion too deep (the C stack is full)");
}

/* The innermost activation of exec, and the site of the procedure
   running (profile.c).  */
struct activation *vm_activation;

static obj exec_in (const struct node *n, struct frame *env,
                    struct activation *a);

/* Run N in ENV in a new activation, whose procedure is PROC (NULL: the
   one running goes on, N being part of its body).  */
static obj
exec_as (const struct node *n, struct frame *env, const struct node *proc)
{
  struct activation a = { proc, vm_activation };
  const struct mp_vm_site *running = *vm_running;
  vm_activation = &a;
  if (proc)
    *vm_running = proc->origin->site;
  obj v = exec_in (n, env, &a);
  vm_activation = a.outer;
  *vm_running = running;
  return v;
}

static obj
exec (const struct node *n, struct frame *env)
{
  return exec_as (n, env, NULL);
}

const void *
eval_entry (void)
{
  return (const void *) exec_as;
}

void
eval_reset (void)
{
  vm_activation = NULL;
  *vm_running = NULL;
}

/* Run N in ENV as activation A: the loop that tail calls go round.  */
static obj
exec_in (const struct node *n, struct frame *env, struct activation *a)
{
  check_stack (n->line);
  for (;;)
    switch (n->kind)
      {
      case N_CONST:
        return n->value;
      case N_LOCAL:
        return checked (*local (n, env), n);
      case N_GLOBAL:
        return checked (AS (symbol, n->value)->value, n);
      case N_SET_LOCAL:
        *local (n, env) = exec (n->a, env);
        return UNSPECIFIED;
      case N_SET_GLOBAL:
        checked (AS (symbol, n->value)->value, n);
        /* fall through */
      case N_DEFINE:
        AS (symbol, n->value)->value = exec (n->a, env);
        return UNSPECIFIED;
      case N_IF:
        n = exec (n->a, env) != FALSE ? n->b : n->c;
        continue;
      case N_LAMBDA:
        return make_closure (n, env);
      case N_SEQ:
        for (int i = 0; i < n->n_items - 1; i++)
          exec (n->items[i], env);
        n = n->items[n->n_items - 1];
        continue;
      case N_AND:
      case N_OR:
        for (int i = 0; i < n->n_items - 1; i++)
          {
            obj v = exec (n->items[i], env);
            if ((v == FALSE) == (n->kind == N_AND))
              return v;
          }
        n = n->items[n->n_items - 1];
        continue;
      case N_LET:
        {
          struct frame *f = make_frame (env, (size_t) n->slots);
          for (int i = 0; i < n->slots; i++)
            f->slots[i] = UNBOUND;
          for (int i = 0; i < n->n_items; i++)
            f->slots[i] = exec (n->items[i], n->rec ? f : env);
          env = f;
          n = n->a;
          continue;
        }
      case N_CALL:
        {
          obj f = exec (n->items[0], env);
          int argc = n->n_items - 1;
          obj argv[argc + 1];
          for (int i = 0; i < argc; i++)
            argv[i] = exec (n->items[i + 1], env);
          current_line = n->line;
          if (has_type (f, T_PRIMITIVE))
            return call_primitive (f, argc, argv);
          if (!has_type (f, T_CLOSURE))
            not_a_procedure (f, n->line);
          a->proc = AS (closure, f)->lambda;
          *vm_running = a->proc->origin->site;  /* its frame is its own */
          env = enter (f, argc, argv);
          n = a->proc->a;
          continue;
        }
      }
}

obj
run (const struct node *n)
{
  return exec_as (n, NULL, n);
}

obj
apply (obj f, int argc, obj *argv)
{
  if (has_type (f, T_PRIMITIVE))
    return call_primitive (f, argc, argv);
  if (!has_type (f, T_CLOSURE))
    not_a_procedure (f, current_line);
  int line = current_line;
  const struct node *l = AS (closure, f)->lambda;
  const struct mp_vm_site *caller = *vm_running;
  *vm_running = l->origin->site;  /* its frame is its own */
  obj v = exec_as (l->a, enter (f, argc, argv), l);
  *vm_running = caller;
  current_line = line;
  return v;
}
