/* words.c -- a plain malloc program for the memprof demo.

   Counts the words of a text in a hash table whose keys are strdup'ed and
   whose table and per-word position lists grow with realloc.  With a file
   argument it reads that file; without one it generates a deterministic
   pseudo-random text of N words (default 200000).  */

#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry
{
  char *word;                   /* strdup'ed key */
  size_t count;
  size_t *pos;                  /* positions of the first occurrences */
  size_t npos, cappos;
  struct entry *next;           /* hash chain */
};

struct table
{
  struct entry **buckets;
  size_t nbuckets, nentries;
};

#define MAX_POSITIONS 64

static void *
xrealloc (void *p, size_t n)
{
  p = realloc (p, n);
  if (p == NULL)
    {
      perror ("realloc");
      exit (1);
    }
  return p;
}

static unsigned long
hash (const char *s)
{
  unsigned long h = 5381;
  while (*s)
    h = h * 33 + (unsigned char) *s++;
  return h;
}

static void
grow (struct table *t)
{
  size_t n = t->nbuckets ? 2 * t->nbuckets : 64;
  struct entry **b = calloc (n, sizeof *b);
  if (b == NULL)
    {
      perror ("calloc");
      exit (1);
    }
  for (size_t i = 0; i < t->nbuckets; i++)
    for (struct entry *e = t->buckets[i], *next; e; e = next)
      {
        next = e->next;
        size_t j = hash (e->word) & (n - 1);
        e->next = b[j];
        b[j] = e;
      }
  free (t->buckets);
  t->buckets = b;
  t->nbuckets = n;
}

static void
add (struct table *t, const char *word, size_t position)
{
  if (t->nentries >= t->nbuckets)
    grow (t);
  size_t i = hash (word) & (t->nbuckets - 1);
  struct entry *e;
  for (e = t->buckets[i]; e; e = e->next)
    if (strcmp (e->word, word) == 0)
      break;
  if (e == NULL)
    {
      e = calloc (1, sizeof *e);
      if (e == NULL || (e->word = strdup (word)) == NULL)
        {
          perror ("strdup");
          exit (1);
        }
      e->next = t->buckets[i];
      t->buckets[i] = e;
      t->nentries++;
    }
  e->count++;
  if (e->npos < MAX_POSITIONS)
    {
      if (e->npos == e->cappos)
        {
          e->cappos = e->cappos ? 2 * e->cappos : 2;
          e->pos = xrealloc (e->pos, e->cappos * sizeof *e->pos);
        }
      e->pos[e->npos++] = position;
    }
}

/* A deterministic word: two to four syllables chosen by a small LCG, with
   a skewed distribution so that some words are frequent.  */
static void
make_word (unsigned long *seed, char *buf)
{
  static const char *const syl[] = {
    "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qua", "dre"
  };
  *seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
  unsigned long r = *seed >> 33;
  int n = 2 + (int) (r % 3);
  buf[0] = '\0';
  for (int i = 0; i < n; i++)
    {
      r /= 3;
      unsigned k = (unsigned) (r % 12);
      k = k * k / 12;           /* skew towards the first syllables */
      strcat (buf, syl[k]);
      r /= 12;
    }
}

static int
by_count (const void *a, const void *b)
{
  const struct entry *x = *(struct entry *const *) a;
  const struct entry *y = *(struct entry *const *) b;
  if (x->count != y->count)
    return x->count < y->count ? 1 : -1;
  return strcmp (x->word, y->word);
}

int
main (int argc, char **argv)
{
  struct table t = { NULL, 0, 0 };
  size_t total = 0;

  if (argc > 1 && strcmp (argv[1], "-n") != 0)
    {
      FILE *f = fopen (argv[1], "r");
      if (f == NULL)
        {
          perror (argv[1]);
          return 1;
        }
      char *line = NULL, *word = NULL;
      size_t cap = 0, wlen = 0, wcap = 0;
      while (getline (&line, &cap, f) != -1)
        for (char *p = line;; p++)
          {
            if (isalnum ((unsigned char) *p))
              {
                if (wlen + 2 > wcap)
                  word = xrealloc (word, wcap = wcap ? 2 * wcap : 16);
                word[wlen++] = (char) tolower ((unsigned char) *p);
                continue;
              }
            if (wlen)
              {
                word[wlen] = '\0';
                add (&t, word, total++);
                wlen = 0;
              }
            if (*p == '\0')
              break;
          }
      free (word);
      free (line);
      fclose (f);
    }
  else
    {
      size_t n = argc > 2 ? strtoul (argv[2], NULL, 10) : 200000;
      unsigned long seed = 42;
      char buf[32];
      for (size_t i = 0; i < n; i++)
        {
          make_word (&seed, buf);
          add (&t, buf, total++);
        }
    }

  /* Sort the entries by count and print the top ten.  */
  struct entry **all = malloc ((t.nentries + 1) * sizeof *all);
  if (all == NULL)
    {
      perror ("malloc");
      return 1;
    }
  size_t k = 0;
  for (size_t i = 0; i < t.nbuckets; i++)
    for (struct entry *e = t.buckets[i]; e; e = e->next)
      all[k++] = e;
  qsort (all, k, sizeof *all, by_count);
  printf ("%zu words, %zu distinct\n", total, t.nentries);
  for (size_t i = 0; i < k && i < 10; i++)
    printf ("  %-14s %7zu  (first at %zu)\n", all[i]->word, all[i]->count,
            all[i]->pos[0]);

  for (size_t i = 0; i < k; i++)
    {
      free (all[i]->pos);
      free (all[i]->word);
      free (all[i]);
    }
  free (all);
  free (t.buckets);
  return 0;
}
