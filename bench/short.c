/* short.c -- a short-lived process, of the kind build systems and shell
   scripts run by the hundred: a few milliseconds, and a few hundred
   samples at the default sampling rate (1e-4), on stacks of ten to
   twenty frames.  It reads nothing: it builds a tree of named nodes
   recursively, fills and drops buffers of a few pages as a tool reading
   its input would, and prints a checksum.
   Usage: short [ROUNDS]  (default 4)  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node
{
  struct node *left, *right;
  char *name;
};

static void *
xmalloc (size_t n)
{
  void *p = malloc (n);
  if (p == NULL)
    {
      perror ("malloc");
      exit (1);
    }
  return p;
}

static __attribute__ ((noinline)) char *
name_of (int depth, int i)
{
  char buf[32];
  int n = snprintf (buf, sizeof buf, "node-%d-%d", depth, i);
  char *s = xmalloc ((size_t) n + 1);
  memcpy (s, buf, (size_t) n + 1);
  return s;
}

static __attribute__ ((noinline)) struct node *
make (int depth, int i)
{
  struct node *n = xmalloc (sizeof *n);
  n->name = name_of (depth, i);
  n->left = depth > 0 ? make (depth - 1, 2 * i) : NULL;
  n->right = depth > 0 ? make (depth - 1, 2 * i + 1) : NULL;
  return n;
}

static __attribute__ ((noinline)) unsigned long
drop (struct node *n)
{
  if (n == NULL)
    return 0;
  unsigned long h = strlen (n->name) + drop (n->left) + drop (n->right);
  free (n->name);
  free (n);
  return h;
}

/* A buffer of a few pages, as a reader of input would fill and scan.  */
static __attribute__ ((noinline)) unsigned long
buffer (size_t size)
{
  unsigned long *b = xmalloc (size);
  size_t n = size / sizeof *b;
  unsigned long h = 0;
  for (size_t i = 0; i < n; i++)
    b[i] = i * 2654435761u;
  for (size_t i = 0; i < n; i++)
    h ^= b[i] >> (i & 7);
  free (b);
  return h;
}

/* Input read at nesting LEVEL: a buffer, then the nested parts; the
   buffers of each level come from a call stack of their own.  */
static __attribute__ ((noinline)) unsigned long
read_input (int pieces, int level)
{
  unsigned long h = 0;
  for (int i = 0; i < pieces; i++)
    {
      h += buffer (4096 + (size_t) ((i + level) % 8) * 4096);
      if (level > 0 && i % 4 == 0)
        h += read_input (pieces / 2, level - 1);
    }
  return h;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 4;
  unsigned long h = 0;
  for (int r = 0; r < rounds; r++)
    {
      h += drop (make (10, r));
      h += read_input (24, 4);
    }
  printf ("%lu\n", h);
  return 0;
}
