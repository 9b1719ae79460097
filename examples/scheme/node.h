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

struct node
{
  enum node_kind kind;
  int line;                     /* where its source started */
  obj value;
  int depth, index;
  int params, rest, rec;        /* N_LAMBDA, N_LET */
  int slots;                    /* variables of its frame: N_LAMBDA, N_LET */
  const struct node *a, *b, *c;
  const struct node **items;
  int n_items;
};

#endif
