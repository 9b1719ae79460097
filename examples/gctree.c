/* gctree.c -- a Boehm GC program for the memprof demo.

   Builds binary trees of GC_MALLOC'ed nodes, each with a GC_MALLOC_ATOMIC
   label, and drops most of them; keeps one long-lived tree and a list of
   every tenth tree's root alive throughout; collects explicitly with
   GC_gcollect.  Nothing is freed by hand.  The output depends only on the
   computation, not on the collector.  */

#include <gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node
{
  struct node *left, *right;
  char *label;                  /* atomic: holds no pointers */
  long value;
};

struct keep                     /* a list of trees kept alive */
{
  struct keep *next;
  struct node *tree;
};

static struct node *
make (int depth, long value)
{
  struct node *n = GC_MALLOC (sizeof *n);
  n->value = value;
  n->label = GC_MALLOC_ATOMIC (16);
  snprintf (n->label, 16, "n%ld", value);
  if (depth > 0)
    {
      n->left = make (depth - 1, 2 * value);
      n->right = make (depth - 1, 2 * value + 1);
    }
  return n;
}

/* The number of nodes of tree N, after checking every label.  */
static long
check (const struct node *n)
{
  if (n == NULL)
    return 0;
  char expect[16];
  snprintf (expect, sizeof expect, "n%ld", n->value);
  if (strcmp (expect, n->label) != 0)
    {
      fprintf (stderr, "gctree: bad label %s\n", n->label);
      exit (1);
    }
  return 1 + check (n->left) + check (n->right);
}

int
main (void)
{
  GC_INIT ();
  struct node *long_lived = make (14, 1);
  struct keep *kept = NULL;
  long sum = 0;

  for (int round = 0; round < 200; round++)
    {
      struct node *t = make (10, round);
      sum += check (t);
      if (round % 10 == 0)
        {
          struct keep *k = GC_MALLOC (sizeof *k);
          k->tree = t;
          k->next = kept;
          kept = k;
        }
      if (round % 50 == 49)
        GC_gcollect ();
    }

  int nkept = 0;
  for (struct keep *k = kept; k; k = k->next)
    nkept++, sum += check (k->tree);
  GC_gcollect ();
  printf ("%ld nodes checked; long-lived tree: %ld nodes; %d trees kept\n", sum,
          check (long_lived), nkept);
  return 0;
}
