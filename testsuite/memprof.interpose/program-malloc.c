/* A program with a malloc of its own keeps it: the runtime's weak
   interposers give way, and the rewritten calls use the program's
   malloc too.  Its blocks' layout is not known, so they are not tagged:
   each allocation is counted at its site, each free as foreign, and the
   report says why the other calls are not counted.  */
/* { dg-do run } */
/* { dg-skip-if "ASan's malloc cannot be replaced" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1" } */

#include "../lib/mptest.h"

extern void *__libc_malloc (size_t);
extern void *__libc_calloc (size_t, size_t);
extern void *__libc_realloc (void *, size_t);
extern void __libc_free (void *);

/* Volatile: GCC takes malloc for the builtin, which touches no variable
   of the program's.  */
static volatile int mallocs, frees;

void *
malloc (size_t n)
{
  mallocs++;
  return __libc_malloc (n);
}

void *
calloc (size_t n, size_t size)
{
  mallocs++;
  return __libc_calloc (n, size);
}

void *
realloc (void *p, size_t n)
{
  return __libc_realloc (p, n);
}

void
free (void *p)
{
  frees += p != NULL;
  __libc_free (p);
}

void *volatile kept[10];
static unsigned l_malloc, l_free;

int
main (void)
{
  setvbuf (stdout, NULL, _IONBF, 0);    /* no buffer to count */
  int m0 = mallocs, f0 = frees;
  for (int i = 0; i < 10; i++)
    {
      kept[i] = malloc (100); l_malloc = __LINE__;
    }
  for (int i = 0; i < 10; i++)
    {
      free (kept[i]); l_free = __LINE__;
    }
  CHECK_EQ (mallocs - m0, 10);
  CHECK_EQ (frees - f0, 10);
  struct mpt_site s = SITE (l_malloc);
  CHECK_EQ (s.s.numAllocateOK, 10);
  CHECK_EQ (s.s.bytesAllocated, 1000);
  s = SITE (l_free);
  CHECK_EQ (s.s.numForeignDeallocate, 10);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n.*\nnot rewritten: not counted \\(the program's own malloc\\)\n" } */
