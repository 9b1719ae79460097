/* Blocks memprof did not allocate (grown by libc itself, or got from
   malloc through a function pointer, which the plugin does not rewrite)
   go to the system allocator untouched when the program frees them: no
   crash, numForeignDeallocate counts them at the free's site, bytesUsed
   does not move.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <stdint.h>
#include "../lib/mptest.h"

void *volatile sink;
/* Indirect calls are not rewritten: these are libc's own functions.  */
void *(*volatile libc_malloc) (size_t) = malloc;
void *(*volatile libc_realloc) (void *, size_t) = realloc;

int
main (void)
{
  struct mp_alloc_stats g0, g;
  struct mpt_site s;

  static char text[] = "first line of the getline test\nsecond\n";
  FILE *f = fmemopen (text, sizeof text - 1, "r");
  CHECK (f != NULL);
  mp_alloc_stats (&g0);

  /* getline grows its buffer with libc's malloc/realloc */
  char *line = NULL;
  size_t cap = 0;
  ssize_t len = getline (&line, &cap, f);
  CHECK_EQ (len, 31);
  CHECK (line && strcmp (line, "first line of the getline test\n") == 0);
  free (line); unsigned l_free_getline = __LINE__;
  s = SITE (l_free_getline);
  CHECK_EQ (s.n, 1);
  CHECK_EQ (s.s.numForeignDeallocate, 1);
  CHECK_EQ (s.s.numDeallocate, 0);
  CHECK_EQ (s.s.bytesContracted, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  CHECK_EQ (g.numForeignDeallocate - g0.numForeignDeallocate, 1);
  fclose (f);

  /* small and mmapped blocks from libc's malloc, freed by a rewritten free */
  size_t sizes[] = { 1, 24, 100, 4000, 1 << 20 };
  for (int i = 0; i < 5; i++)
    {
      mp_alloc_stats (&g0);
      unsigned char *p = libc_malloc (sizes[i]);
      CHECK (p != NULL);
      memset (p, 0xa5, sizes[i]);
      sink = p;
      free (p); unsigned l_free_fp = __LINE__;
      s = SITE (l_free_fp);
      CHECK_EQ (s.s.numForeignDeallocate, i + 1);
      CHECK_EQ (s.s.numDeallocate, 0);
      mp_alloc_stats (&g);
      CHECK_EQ (g.bytesUsed, g0.bytesUsed);
      CHECK_EQ (g.numAllocate, g0.numAllocate);
      CHECK_EQ (g.numDeallocate, g0.numDeallocate);
      CHECK_EQ (g.numForeignDeallocate - g0.numForeignDeallocate, 1);
    }

  /* a foreign block at the address of one of ours just freed: our free
     cleared the tag, so the foreign block is not taken for ours */
  mp_alloc_stats (&g0);
  void *ours = malloc (100);
  sink = ours;
  uintptr_t was = (uintptr_t) ours;
  free (ours);
  void *theirs = libc_malloc (100);	/* usually the same chunk */
  sink = theirs;
  free (theirs); unsigned l_free_reused = __LINE__;
  s = SITE (l_free_reused);
  CHECK_EQ (s.s.numForeignDeallocate, 1);
  CHECK_EQ (s.s.numDeallocate, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  (void) was;

  /* a rewritten realloc of a foreign block goes to libc: contents kept,
     bytesUsed unchanged, the result is still foreign */
  mp_alloc_stats (&g0);
  char *q = libc_malloc (10);
  memcpy (q, "abcdefghi", 10);
  q = realloc (q, 100000);
  sink = q;
  CHECK (q != NULL && strcmp (q, "abcdefghi") == 0);
  free (q); unsigned l_free_realloced = __LINE__;
  s = SITE (l_free_realloced);
  CHECK_EQ (s.s.numForeignDeallocate, 1);
  CHECK_EQ (s.s.numDeallocate, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  CHECK_EQ (g.numAllocate, g0.numAllocate);

  /* and the other way round: libc's realloc of one of our blocks works */
  char *o = malloc (32);
  strcpy (o, "ours");
  o = libc_realloc (o, 64);
  CHECK (o != NULL && strcmp (o, "ours") == 0);
  sink = o;
  free (o);

  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
