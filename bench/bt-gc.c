/* bt-gc.c -- binary-trees (the Computer Language Benchmarks Game
   algorithm), single-threaded, on Boehm GC: GC_MALLOC, never freed.
   Usage: bt-gc [DEPTH]  (default 17: about 1 s plain on the reference box)  */

#include <gc.h>
#include <stdio.h>
#include <stdlib.h>

struct node
{
  struct node *left, *right;
};

static struct node *
make (int depth)
{
  struct node *n = GC_MALLOC (sizeof *n);
  if (n == NULL)
    {
      fputs ("GC_MALLOC failed\n", stderr);
      exit (1);
    }
  if (depth > 0)
    {
      n->left = make (depth - 1);
      n->right = make (depth - 1);
    }
  return n;                     /* GC_MALLOC clears: leaves stay NULL */
}

static long
check (const struct node *n)
{
  return 1 + (n->left ? check (n->left) + check (n->right) : 0);
}

int
main (int argc, char **argv)
{
  GC_INIT ();
  int min_depth = 4;
  int max_depth = argc > 1 ? atoi (argv[1]) : 17;
  if (max_depth < min_depth + 2)
    max_depth = min_depth + 2;

  struct node *stretch = make (max_depth + 1);
  printf ("stretch tree of depth %d\t check: %ld\n", max_depth + 1,
          check (stretch));
  stretch = NULL;

  struct node *long_lived = make (max_depth);
  for (int d = min_depth; d <= max_depth; d += 2)
    {
      long iterations = 1L << (max_depth - d + min_depth);
      long sum = 0;
      for (long i = 0; i < iterations; i++)
        sum += check (make (d));
      printf ("%ld\t trees of depth %d\t check: %ld\n", iterations, d, sum);
    }
  printf ("long lived tree of depth %d\t check: %ld\n", max_depth,
          check (long_lived));
  return 0;
}
