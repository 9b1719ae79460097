/* A finaliser the program registers itself, with GC_register_finalizer,
   _ignore_self or _no_order, keeps its kind beside mp_finalise calls on
   its block: it runs, or not, as it does without them (the control),
   and Boehm warns of the same cycles.  The mp_finalise calls run in any
   case, once, on a cycle through the block and on a block that points
   to itself; Boehm never names a block that only they finalise.  A
   later GC_register_finalizer gets the program's previous finaliser
   back, not memprof's, and leaves the calls in place.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <stdint.h>
#include <gc.h>
#include "../lib/mptest.h"

enum { ORDERED, IGNORE_SELF, NO_ORDER, KINDS };
enum { CYCLE, SELF, SHAPES };

struct node
{
  struct node *next;
  int id;
};

/* Program finalisers run, and mp_finalise calls, by node id: ids are
   (kind, shape, with calls or not, a or b); N_IDS is replace's.  */
#define ID(k, s, w, b) ((((k) * SHAPES + (s)) * 2 + (w)) * 2 + (b))
#define N_IDS (KINDS * SHAPES * 4)
static int prog_runs[N_IDS + 1], calls[N_IDS + 1];
static GC_hidden_pointer nodes[N_IDS + 1];  /* hidden: no root */
static GC_word warned[64];
static int n_warned;

static void
warn (char *msg, GC_word arg)
{
  if (strstr (msg, "Finalization cycle") && n_warned < 64)
    {
      for (int i = 0; i < n_warned; i++)
        if (warned[i] == arg)
          return;
      warned[n_warned++] = arg;
    }
}

static int
was_warned (int id)
{
  for (int i = 0; i < n_warned; i++)
    if (warned[i] == (GC_word) GC_REVEAL_POINTER (nodes[id]))
      return 1;
  return 0;
}

static void
prog (void *obj, void *data)
{
  (void) data;
  prog_runs[((struct node *) obj)->id]++;
}

static void
fin (void *obj, void *data)
{
  (void) data;
  calls[((struct node *) obj)->id]++;
}

static void
other_prog (void *obj, void *data)
{
  (void) obj;
  (void) data;
}

static void
register_kind (int kind, void *obj, GC_finalization_proc fn, void *cd)
{
  if (kind == ORDERED)
    GC_register_finalizer (obj, fn, cd, NULL, NULL);
  else if (kind == IGNORE_SELF)
    GC_register_finalizer_ignore_self (obj, fn, cd, NULL, NULL);
  else
    GC_register_finalizer_no_order (obj, fn, cd, NULL, NULL);
}

/* Boehm's data keep a pointer to the start of a heap block it handed
   out (libgc 8.2): no node starts one, or it would stay.  */
static struct node *
node (int id)
{
  struct node *x = GC_MALLOC (sizeof *x);
  if (((uintptr_t) x & 4095) == 0)
    x = GC_MALLOC (sizeof *x);
  x->id = id;
  nodes[id] = GC_HIDE_POINTER (x);
  return x;
}

/* Block a of SHAPE, with the program's finaliser of KIND: in a cycle
   with block b, or pointing to itself; with mp_finalise calls on both
   if WITH.  */
static __attribute__ ((noinline)) void
make (int kind, int shape, int with)
{
  struct node *a = node (ID (kind, shape, with, 0));
  struct node *b = node (ID (kind, shape, with, 1));
  a->next = shape == CYCLE ? b : a;
  b->next = a;
  register_kind (kind, a, prog, NULL);
  if (with)
    {
      mp_finalise (fin, a, NULL);
      mp_finalise (fin, b, NULL);
    }
}

/* The finaliser the program registered first comes back, and the calls
   stay when it replaces or removes its own.  */
static __attribute__ ((noinline)) void
replace (int *ran)
{
  struct node *x = node (N_IDS);
  GC_finalization_proc ofn = NULL;
  void *ocd = NULL;
  GC_register_finalizer_ignore_self (x, prog, ran, &ofn, &ocd);
  CHECK (ofn == NULL && ocd == NULL);
  mp_finalise (fin, x, NULL);
  GC_register_finalizer (x, other_prog, NULL, &ofn, &ocd);
  CHECK (ofn == prog && ocd == ran);
  GC_register_finalizer_no_order (x, NULL, NULL, &ofn, &ocd);
  CHECK (ofn == other_prog && ocd == NULL);
}

int
main (void)
{
  GC_INIT ();
  GC_set_warn_proc (warn);
  for (int kind = 0; kind < KINDS; kind++)
    for (int shape = 0; shape < SHAPES; shape++)
      for (int with = 0; with < 2; with++)
        {
          make (kind, shape, with);
          clear_stack ();
        }
  mpt_collect_deliver (4);

  for (int kind = 0; kind < KINDS; kind++)
    for (int shape = 0; shape < SHAPES; shape++)
      {
        int a0 = ID (kind, shape, 0, 0), a1 = ID (kind, shape, 1, 0);
        int before = mpt_failures;
        /* Boehm's own semantics for the program's finaliser.  */
        int runs = kind == NO_ORDER || (kind == IGNORE_SELF && shape == SELF);
        CHECK_EQ (prog_runs[a0], runs);
        CHECK_EQ (prog_runs[a1], prog_runs[a0]);
        CHECK_EQ (was_warned (a1), was_warned (a0));
        CHECK_EQ (was_warned (a0), !runs);
        /* OCaml's for the calls.  */
        CHECK_EQ (calls[a1], 1);
        CHECK_EQ (calls[a1 + 1], 1);
        CHECK (!was_warned (a1 + 1));
        if (mpt_failures != before)
          fprintf (stderr, "  (kind %d, shape %d)\n", kind, shape);
      }

  int ran = 0;
  replace (&ran);
  clear_stack ();
  mpt_collect_deliver (2);
  CHECK_EQ (calls[N_IDS], 1);
  CHECK_EQ (prog_runs[N_IDS], 0);   /* removed */
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
