/* bt-malloc.c -- binary-trees (the Computer Language Benchmarks Game
   algorithm), single-threaded, with malloc and free.
   Usage: bt-malloc [DEPTH]  (default 18)  */

#include <stdio.h>
#include <stdlib.h>

struct node
{
  struct node *left, *right;
};

static struct node *
make (int depth)
{
  struct node *n = malloc (sizeof *n);
  if (n == NULL)
    {
      perror ("malloc");
      exit (1);
    }
  if (depth > 0)
    {
      n->left = make (depth - 1);
      n->right = make (depth - 1);
    }
  else
    n->left = n->right = NULL;
  return n;
}

static long
check (const struct node *n)
{
  return 1 + (n->left ? check (n->left) + check (n->right) : 0);
}

static void
drop (struct node *n)
{
  if (n->left)
    {
      drop (n->left);
      drop (n->right);
    }
  free (n);
}

int
main (int argc, char **argv)
{
  int min_depth = 4;
  int max_depth = argc > 1 ? atoi (argv[1]) : 18;
  if (max_depth < min_depth + 2)
    max_depth = min_depth + 2;

  struct node *stretch = make (max_depth + 1);
  printf ("stretch tree of depth %d\t check: %ld\n", max_depth + 1,
          check (stretch));
  drop (stretch);

  struct node *long_lived = make (max_depth);
  for (int d = min_depth; d <= max_depth; d += 2)
    {
      long iterations = 1L << (max_depth - d + min_depth);
      long sum = 0;
      for (long i = 0; i < iterations; i++)
        {
          struct node *t = make (d);
          sum += check (t);
          drop (t);
        }
      printf ("%ld\t trees of depth %d\t check: %ld\n", iterations, d, sum);
    }
  printf ("long lived tree of depth %d\t check: %ld\n", max_depth,
          check (long_lived));
  drop (long_lived);
  return 0;
}
