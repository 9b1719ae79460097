// C++: malloc/free and the GC family in C++ code (templates, lambdas,
// member functions) are rewritten and counted exactly.
// { dg-do run }
// { dg-options "-std=gnu++17" }

#include <cstdlib>
#include <cstring>
#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static unsigned l_tmpl, l_member, l_lambda, l_free, l_gc;

template <typename T>
T *
make (std::size_t n)
{
  T *p = static_cast<T *> (std::malloc (n * sizeof (T))); l_tmpl = __LINE__;
  return p;
}

struct buffer
{
  char *data;
  explicit buffer (std::size_t n)
  {
    data = static_cast<char *> (malloc (n)); l_member = __LINE__;
    sink = data;
  }
  ~buffer ()
  {
    free (data); l_free = __LINE__;
  }
};

int
main ()
{
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  for (int i = 0; i < 10; i++)
    {
      long *p = make<long> (4);
      sink = p;
      std::free (p);
    }
  for (int i = 0; i < 20; i++)
    {
      buffer b (33);
    }
  auto f = [] (std::size_t n) {
    void *p = std::malloc (n); l_lambda = __LINE__;
    return p;
  };
  for (int i = 0; i < 3; i++)
    {
      void *p = f (7);
      sink = p;
      free (p);
    }
  for (int i = 0; i < 4; i++)
    {
      sink = GC_MALLOC (24); l_gc = __LINE__;
    }

  struct mpt_site s = SITE (l_tmpl);
  CHECK_EQ (s.s.numAllocate, 10);
  CHECK_EQ (s.s.bytesAllocated, 10 * 4 * sizeof (long));
  s = SITE (l_member);
  CHECK_EQ (s.s.numAllocate, 20);
  CHECK_EQ (s.s.bytesAllocated, 20 * 33);
  s = SITE (l_free);
  CHECK_EQ (s.s.numDeallocate, 20);
  CHECK_EQ (s.s.bytesContracted, 20 * 33);
  s = SITE (l_lambda);
  CHECK_EQ (s.s.numAllocate, 3);
  CHECK_EQ (s.s.bytesAllocated, 21);
  s = SITE (l_gc);
  CHECK_EQ (s.s.numAllocate, 4);
  CHECK_EQ (s.minor_words, 12);
  mp_alloc_stats (&g);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 37);
  CHECK_EQ (g.numDeallocate - g0.numDeallocate, 33);
  CHECK_EQ (g.numForeignDeallocate - g0.numForeignDeallocate, 0);
  return mpt_done ();
}

// { dg-output "(^|\n)ok\n" }
