/* mixed.c -- malloc, realloc and free mixed, as a program that keeps
   strings in a hash table does: each key is built in a small block
   grown with realloc as its text is appended, then stored in a chained
   hash table (malloc'd entries, a bucket array doubled with realloc),
   and a quarter of the time an older key is looked up and deleted.
   Usage: mixed [ROUNDS]  (default 1000000)  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry
{
  struct entry *next;
  char *key;
  unsigned long hash;
};

static struct entry **buckets;
static unsigned long n_buckets, n_entries;

/* P, which an allocation returned: the run stops if it failed.  */
static void *
checked (void *p)
{
  if (p != NULL)
    return p;
  perror ("mixed");
  exit (1);
}

/* FNV-1a.  */
static unsigned long
hash_of (const char *s)
{
  unsigned long h = 14695981039346656037ul;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ul;
  return h;
}

/* V in hex then a dot, in OUT; its length.  */
static int
hex (char *out, unsigned long v)
{
  int k = 0;
  do
    {
      out[k++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    }
  while (v);
  out[k++] = '.';
  out[k] = '\0';
  return k;
}

/* A key of ROUND: its text appended piece by piece, the block grown
   with realloc each time it is full, as a string builder does.  */
static char *
build (unsigned long round)
{
  size_t cap = 8, len = 0;
  char *s = checked (malloc (cap));
  unsigned long x = round * 2654435761u;
  int pieces = 2 + (int) (x % 6);
  for (int i = 0; i < pieces; i++)
    {
      char piece[8];
      int k = hex (piece, (x >> (i * 5)) & 0xfff);
      if (len + (size_t) k + 1 > cap)
        {
          while (len + (size_t) k + 1 > cap)
            cap *= 2;
          s = checked (realloc (s, cap));
        }
      memcpy (s + len, piece, (size_t) k + 1);
      len += (size_t) k;
    }
  return s;
}

static void
grow (void)
{
  unsigned long old = n_buckets;
  n_buckets = old ? 2 * old : 64;
  buckets = checked (realloc (buckets, n_buckets * sizeof *buckets));
  memset (buckets + old, 0, (n_buckets - old) * sizeof *buckets);
  /* Rehash: an entry moves to the upper half or stays.  */
  for (unsigned long b = 0; b < old; b++)
    for (struct entry **at = &buckets[b]; *at;)
      {
        struct entry *e = *at;
        unsigned long to = e->hash & (n_buckets - 1);
        if (to == b)
          at = &e->next;
        else
          {
            *at = e->next;
            e->next = buckets[to];
            buckets[to] = e;
          }
      }
}

/* Put KEY in the table, unless it is there: then free it.  */
static void
put (char *key)
{
  unsigned long h = hash_of (key);
  for (struct entry *e = buckets[h & (n_buckets - 1)]; e; e = e->next)
    if (e->hash == h && strcmp (e->key, key) == 0)
      {
        free (key);
        return;
      }
  if (n_entries >= n_buckets)
    grow ();
  struct entry *e = checked (malloc (sizeof *e));
  e->key = key;
  e->hash = h;
  e->next = buckets[h & (n_buckets - 1)];
  buckets[h & (n_buckets - 1)] = e;
  n_entries++;
}

/* Delete the key of ROUND, if the table has it; whether it did.  */
static int
drop (unsigned long round)
{
  char *key = build (round);
  unsigned long h = hash_of (key);
  int found = 0;
  for (struct entry **at = &buckets[h & (n_buckets - 1)]; *at;
       at = &(*at)->next)
    if ((*at)->hash == h && strcmp ((*at)->key, key) == 0)
      {
        struct entry *e = *at;
        *at = e->next;
        free (e->key);
        free (e);
        n_entries--;
        found = 1;
        break;
      }
  free (key);
  return found;
}

int
main (int argc, char **argv)
{
  unsigned long rounds = argc > 1 ? strtoul (argv[1], NULL, 10) : 1000000;
  unsigned long dropped = 0;
  grow ();
  for (unsigned long r = 0; r < rounds; r++)
    {
      put (build (r));
      if (r % 4 == 3)
        dropped += drop (r / 2);
    }
  unsigned long long total = 0;
  for (unsigned long b = 0; b < n_buckets; b++)
    while (buckets[b])
      {
        struct entry *e = buckets[b];
        buckets[b] = e->next;
        total += strlen (e->key);
        free (e->key);
        free (e);
      }
  free (buckets);
  printf ("%lu rounds, %lu dropped, %llu bytes of keys\n", rounds, dropped,
          total);
  return 0;
}
