/* node.h -- the compiled form of a program (compile.c makes it, eval.c
   runs it): a tree of nodes on the Boehm heap, one per expression, with
   variables resolved to their frame (DEPTH frames out, slot INDEX) or
   to their global symbol, and the syntactic forms reduced to a few
   kinds.  */

#ifndef NODE_H
#define NODE_H

#include "scheme.h"

enum node_kind
{
  N_CONST,                      /* value */
  N_LOCAL,                      /* depth, index; value: the name */
  N_GLOBAL,                     /* value: the symbol */
  N_SET_LOCAL,                  /* depth, index := a; value: the name */
  N_SET_GLOBAL,                 /* value: the symbol := a */
  N_DEFINE,                     /* value: the symbol := a */
  N_IF,                         /* a ? b : c */
  N_LAMBDA,                     /* params (+ rest), slots; body a; value:
                                   its name, or FALSE */
  N_SEQ,                        /* items, the last one in tail position */
  N_AND,                        /* items; never empty */
  N_OR,                         /* items; never empty */
  N_LET,                        /* a frame of `slots', the first n_items
                                   set from items (evaluated in it if
                                   rec); then body a */
  N_CALL                        /* items[0] applied to the others */
};

struct origin;

struct node
{
  enum node_kind kind;
  int line;                     /* where its source started */
  const struct origin *origin;  /* N_LAMBDA and the node of a top-level
                                   form: what memprof knows it by */
  obj value;
  int depth, index;
  int params, rest, rec;        /* N_LAMBDA, N_LET */
  int slots;                    /* variables of its frame: N_LAMBDA, N_LET */
  const struct node *a, *b, *c;
  const struct node **items;
  int n_items;
};

/* eval.c: the activations of exec, innermost first, each with the
   procedure (N_LAMBDA node) whose body it runs, or the top-level form
   it runs, if any.  */
struct activation
{
  const struct node *proc;
  struct activation *outer;
};
extern struct activation *vm_activation;
/* exec_as, the function that runs guest code; and for errors, which
   leave the activations they jumped over: forget them.  */
const void *eval_entry (void);
void eval_reset (void);

/* profile.c: a procedure NAME (or a top-level form, NAME NULL) at
   FILE:LINE as memprof knows it: its site, and the word that stands
   for it in call stacks, the origin's address, which must stay valid as
   long as the process (nodes do not: the collector takes them).
   vm_running is where eval.c keeps the site of the procedure running:
   a slot of memprof's, or a dummy without it.  */
struct mp_vm_site;
struct origin
{
  const char *name, *file;
  int line;
  const struct mp_vm_site *site;
  const struct origin *next;    /* profile.c keeps them all on a list */
};
extern const struct mp_vm_site **vm_running;
void profile_init (void);
const struct origin *profile_origin (const char *name, const char *file,
                                     int line);

#endif
