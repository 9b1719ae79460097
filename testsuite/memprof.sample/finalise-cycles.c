/* mp_finalise has OCaml's semantics, no order: blocks in a cycle are
   finalised, each call once, with what its block reaches still valid;
   finalise_last waits until the block is gone for good; a finaliser that
   resurrects a block of a cycle keeps the whole cycle; and Boehm never
   warns of a "Finalization cycle".  Cycles of 2 and of 1000 blocks, a
   block that points to itself, and a resurrection.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <stdint.h>
#include <gc.h>
#include "../lib/mptest.h"

#define MAGIC 0x5eed
#define RING 1000

struct node
{
  long magic;
  long id;
  struct node *next;            /* the next block of its cycle */
};

static int runs[RING + 8];      /* calls run, by node id */
static int bad;                 /* calls that saw a reclaimed next */
static int lasts;               /* finalise_last calls run */
static int cycle_warnings;
static struct node *saved;

static void
warn (char *msg, GC_word arg)
{
  (void) arg;
  if (strstr (msg, "Finalization cycle"))
    cycle_warnings++;
}

/* The call of every node: its cycle must be intact.  */
static void
fin (void *obj, void *data)
{
  struct node *n = obj;
  (void) data;
  runs[n->id]++;
  bad += n->magic != MAGIC || n->next == NULL || n->next->magic != MAGIC
         || GC_base (n->next) != n->next;
}

static void
resurrect (void *obj, void *data)
{
  fin (obj, data);
  saved = obj;
}

static void
last (void *data)
{
  (void) data;
  lasts++;
}

/* A node.  Boehm's own static data keeps a pointer to the start of a
   heap block it handed out (libgc 8.2), which would keep the node there
   alive, and its whole cycle: no node starts a heap block.  */
static struct node *
node (void)
{
  struct node *x = GC_MALLOC (sizeof *x);
  return ((uintptr_t) x & 4095) ? x : GC_MALLOC (sizeof *x);
}

/* A cycle of N nodes numbered from FIRST, the first with FN, the others
   with fin; a finalise_last call on the second if LAST.  */
static __attribute__ ((noinline)) void
make_cycle (int first, int n, void (*fn) (void *, void *), int with_last)
{
  struct node *head = NULL, *prev = NULL;
  for (int i = 0; i < n; i++)
    {
      struct node *x = node ();
      *x = (struct node) { MAGIC, first + i, NULL };
      if (prev)
        prev->next = x;
      else
        head = x;
      prev = x;
    }
  prev->next = head;
  for (struct node *x = head;; x = x->next)
    {
      mp_finalise (x == head ? fn : fin, x, NULL);
      if (x->next == head)
        break;
    }
  if (with_last)
    mp_finalise_last (last, head->next, NULL);
}

static int
sum (int first, int n)
{
  int s = 0;
  for (int i = first; i < first + n; i++)
    s += runs[i];
  return s;
}

int
main (void)
{
  GC_INIT ();
  GC_set_warn_proc (warn);

  /* Two blocks that point at each other.  */
  make_cycle (0, 2, fin, 1);
  clear_stack ();               /* no stale pointer to it */
  mpt_collect_deliver (1);
  CHECK_EQ (runs[0], 1);
  CHECK_EQ (runs[1], 1);
  mpt_collect_deliver (2);      /* gone for good now */
  CHECK_EQ (lasts, 1);
  CHECK_EQ (sum (0, 2), 2);

  /* A block that points to itself.  */
  make_cycle (2, 1, fin, 1);
  clear_stack ();               /* no stale pointer to it */
  mpt_collect_deliver (3);
  CHECK_EQ (runs[2], 1);
  CHECK_EQ (lasts, 2);

  /* A thousand.  Their finalise_last is not asked for: Boehm's data keep
     a stale pointer to the start of a heap block of its own records, and
     the records of a thousand finalisers fill several, one of which may
     keep its object's whole cycle (libgc 8.2, without memprof too).  */
  make_cycle (8, RING, fin, 0);
  clear_stack ();               /* no stale pointer to it */
  mpt_collect_deliver (3);
  int once = 0;
  for (int i = 8; i < 8 + RING; i++)
    once += runs[i] == 1;
  CHECK_EQ (once, RING);

  /* Resurrection inside a cycle: both calls run, the cycle lives on, and
     its finalise_last waits until it is dropped.  */
  make_cycle (3, 2, resurrect, 1);
  clear_stack ();               /* no stale pointer to it */
  mpt_collect_deliver (3);
  CHECK_EQ (runs[3], 1);
  CHECK_EQ (runs[4], 1);
  CHECK (saved != NULL && saved->magic == MAGIC
         && saved->next->next == saved);
  CHECK_EQ (lasts, 2);
  saved = NULL;
  mpt_collect_deliver (3);
  CHECK_EQ (lasts, 3);
  CHECK_EQ (sum (3, 2), 2);     /* never twice */

  CHECK_EQ (bad, 0);
  CHECK_EQ (cycle_warnings, 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
