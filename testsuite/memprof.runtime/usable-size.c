/* A program may use every byte malloc_usable_size reports (SQLite does):
   the rewritten call stops short of memprof's tag, so the block stays
   ours through realloc and free.  And a program that writes into the tag
   anyway, having asked libc itself, loses none of those bytes: its block
   just turns foreign.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <dlfcn.h>
#include <malloc.h>
#include "../lib/mptest.h"

void *volatile sink;
/* Indirect calls are not rewritten; with interpose=0 (the testsuite's
   default) malloc's is not counted either: libc's own block.  But the
   runtime's malloc_usable_size stands in front of libc's for every
   caller, rewritten or not: libc's own is the next one.  */
size_t (*libc_usable_size) (void *);
void *(*volatile libc_malloc) (size_t) = malloc;

int
main (void)
{
  struct mp_alloc_stats g0, g;
  static const size_t sizes[] = { 1, 24, 100, 1000, 4000, 200000 };

  libc_usable_size = (size_t (*) (void *)) dlsym (RTLD_NEXT,
                                                  "malloc_usable_size");
  CHECK (libc_usable_size != NULL);
#ifndef __SANITIZE_ADDRESS__
  /* Under ASan, interposition stands aside: ASan's is the next.  */
  CHECK (libc_usable_size != malloc_usable_size);
#endif
  CHECK_EQ (malloc_usable_size (NULL), 0);
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      mp_alloc_stats (&g0);
      unsigned char *p = malloc (sizes[i]);
      CHECK (p != NULL);
      size_t u = malloc_usable_size (p);
      CHECK (u >= sizes[i]);
      CHECK (u < libc_usable_size (p));
      memset (p, 0xa5, u);
      p = realloc (p, u + 100);
      sink = p;
      CHECK (p != NULL);
      for (size_t j = 0; j < u; j++)
        if (p[j] != 0xa5)
          {
            CHECK (p[j] == 0xa5);
            break;
          }
      memset (p, 0x5a, malloc_usable_size (p));
      free (p);
      mp_alloc_stats (&g);
      CHECK_EQ (g.numForeignDeallocate, g0.numForeignDeallocate);
      CHECK_EQ (g.bytesUsed, g0.bytesUsed);
    }

  /* a foreign block: libc's answer */
  void *f = libc_malloc (100);
  CHECK_EQ (malloc_usable_size (f), libc_usable_size (f));
  free (f);

  /* one byte, then two, written over the tag survive a realloc */
  for (int k = 1; k <= 2; k++)
    {
      char *q = malloc (1000);
      size_t end = libc_usable_size (q) - sizeof (unsigned long long);
      memset (q, 'x', 1000);
      memset (q + end, 'e', k);
      q = realloc (q, 100000);
      sink = q;
      CHECK (q != NULL && q[end] == 'e' && q[end + k - 1] == 'e');
      free (q);
    }
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
