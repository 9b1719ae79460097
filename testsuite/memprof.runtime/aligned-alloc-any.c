/* aligned_alloc with an alignment that is not a power of 2 does what the
   C library's does, at a rewritten call and at one from code built
   without the plugin (through a pointer, so interpose.c's): glibc's
   before 2.38 (its memalign) rounds the alignment up and allocates,
   from 2.38 on it fails with EINVAL; either way the call is counted,
   as a block or as a failure.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var ASAN_OPTIONS "allocator_may_return_null=1" } */
/* { dg-set-target-env-var MEMPROF "interpose=1,report=none" } */

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "../lib/mptest.h"

void *volatile sink;
static const size_t aligns[] = { 0, 3, 24, 48, 100 };
#define N_ALIGNS (sizeof aligns / sizeof aligns[0])

/* What the C library's own aligned_alloc gives for ALIGN: a block or
   not (ASan's refuses every alignment that is not a power of 2).  */
static int
libc_allocates (size_t align)
{
#ifdef __SANITIZE_ADDRESS__
  return align != 0 && (align & (align - 1)) == 0;
#else
  void *libc = dlopen ("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  void *(*real) (size_t, size_t)
    = (void *(*) (size_t, size_t)) dlsym (libc, "aligned_alloc");
  void *p = real (align, 16);
  (free) (p);           /* glibc's block, through the runtime's free */
  return p != NULL;
#endif
}

/* Check one call of ALIGN that gave P, errno E, where the C library's
   gives a block if ALLOCATES.  */
static void
check (size_t align, int allocates, void *p, int e)
{
  if (allocates)
    {
      CHECK (p != NULL);
      if (p != NULL && align > 1 && (align & (align - 1)) == 0)
        CHECK_EQ ((uintptr_t) p % align, 0);
      if (p != NULL)
        memset (p, 1, 16);
    }
  else
    {
      CHECK (p == NULL);
      CHECK_EQ (e, EINVAL);
    }
}

int
main (void)
{
  void *(*volatile foreign) (size_t, size_t) = aligned_alloc;
  /* Asked first: dlopen and dlsym may allocate, which counts.  */
  int allocates[N_ALIGNS];
  for (size_t i = 0; i < N_ALIGNS; i++)
    allocates[i] = libc_allocates (aligns[i]);
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  int64_t ok = 0;
  for (size_t i = 0; i < N_ALIGNS; i++)
    {
      ok += allocates[i];
      errno = 0;
      void *p = aligned_alloc (aligns[i], 16); unsigned l = __LINE__;
      sink = p;
      check (aligns[i], allocates[i], p, errno);
      struct mpt_site s = SITE (l);
      CHECK_EQ (s.s.numAllocate, (int64_t) i + 1);
      CHECK_EQ (s.s.numAllocateOK, ok);
      free (p);
      errno = 0;
      p = foreign (aligns[i], 16);
      sink = p;
      check (aligns[i], allocates[i], p, errno);
      free (p);
    }
  mp_alloc_stats (&g);
  /* The foreign calls count too (interposition), but not under ASan,
     whose allocator stands in front.  */
#ifndef __SANITIZE_ADDRESS__
  CHECK_EQ (g.numAllocate - g0.numAllocate, 2 * (int64_t) N_ALIGNS);
  CHECK_EQ (g.numAllocateOK - g0.numAllocateOK, 2 * ok);
#endif
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
