// A program's own operator new and delete keep working, and are what
// its calls reach: the sized and aligned deletes get the size and the
// alignment.  A replaced new is counted at its call's site, as a user
// allocator is: by the malloc inside it when there is one (whose block
// the runtime tags, so that it is in use until freed), else as a call
// of its size, not in use (the arena's new[] here).
// { dg-do run }
// { dg-options "-std=gnu++17" }
// { dg-set-target-env-var MEMPROF "interpose=1" }

#include <cstdlib>
#include <new>
#include "../lib/mptest.h"

static int news, deletes, sized_deletes, aligned_news, aligned_deletes,
  array_news, array_deletes;
static size_t last_size, last_align;

void *
operator new (size_t n)
{
  news++;
  void *p = malloc (n);
  if (p == NULL)
    throw std::bad_alloc ();
  return p;
}

void
operator delete (void *p) noexcept
{
  deletes++;
  free (p);
}

void
operator delete (void *p, size_t n) noexcept
{
  sized_deletes++;
  last_size = n;
  free (p);
}

void *
operator new (size_t n, std::align_val_t a)
{
  aligned_news++;
  void *p = aligned_alloc ((size_t) a, (n + (size_t) a - 1) & -(size_t) a);
  if (p == NULL)
    throw std::bad_alloc ();
  return p;
}

void
operator delete (void *p, size_t n, std::align_val_t a) noexcept
{
  aligned_deletes++;
  last_size = n;
  last_align = (size_t) a;
  free (p);
}

// new[] from an arena of its own: no malloc inside.
static char arena[1 << 16] __attribute__ ((aligned (16)));
static size_t used;

void *
operator new[] (size_t n)
{
  array_news++;
  void *p = arena + used;
  used += (n + 15) & -16;
  return p;
}

void
operator delete[] (void *, size_t) noexcept
{
  array_deletes++;
}

void
operator delete[] (void *) noexcept
{
  array_deletes++;
}

struct pair
{
  long a, b;
};

struct alignas (64) line
{
  char bytes[64];
};

pair *volatile pairs[10];
line *volatile lines[10];
int *volatile arrays[10];
static unsigned l_new, l_aligned, l_array;

int
main ()
{
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  for (int i = 0; i < 10; i++)
    {
      pairs[i] = new pair (); l_new = __LINE__;
      lines[i] = new line; l_aligned = __LINE__;
      arrays[i] = new int[5]; l_array = __LINE__;
    }
  CHECK_EQ (news, 10);
  CHECK_EQ (aligned_news, 10);
  CHECK_EQ (array_news, 10);
  CHECK_ALLOCS (l_new, 10, 10 * sizeof (pair));
  CHECK_ALLOCS (l_aligned, 10, 10 * sizeof (line));
  CHECK_ALLOCS (l_array, 10, 10 * 5 * sizeof (int));
  // The mallocs inside new were counted, by interposition, and their
  // blocks tagged: in use until deleted.  The arena's are not.
  mp_alloc_stats (&g);
#ifndef __SANITIZE_ADDRESS__
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 10 * (sizeof (pair) + sizeof (line)));
#endif
  for (int i = 0; i < 10; i++)
    {
      delete pairs[i];
      CHECK_EQ (last_size, sizeof (pair));
      delete lines[i];
      CHECK_EQ (last_size, sizeof (line));
      CHECK_EQ (last_align, 64);
      delete[] arrays[i];
    }
  CHECK_EQ (sized_deletes + deletes, 10);
  CHECK_EQ (aligned_deletes, 10);
  CHECK_EQ (array_deletes, 10);
  mp_alloc_stats (&g);
  CHECK_EQ (g.numForeignDeallocate, 0);
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  return mpt_done ();
}

// { dg-output "(^|\n)ok\n" }
