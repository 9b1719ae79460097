// C++: calls in templates, methods and try blocks are rewritten; a
// GC_malloc that may throw keeps its handler.
// { dg-do compile }
// { dg-options "-fchecking -fplugin-arg-memprof-verbose" }

#include <cstdlib>
#include <cstring>
#include <gc.h>

void *volatile sink;

namespace vm
{
  template <typename T>
  T *
  make (std::size_t n)
  {
    return static_cast<T *> (std::malloc (n * sizeof (T)));	// { dg-message "memprof: malloc -> __mp_malloc" }
  }

  struct heap
  {
    void *cell (std::size_t n) { return GC_malloc (n); }	// { dg-message "memprof: GC_malloc -> __mp_GC_malloc" }
  };
}

struct guard { ~guard () { sink = 0; } };

void may_throw ();

int
main (int argc, char **)
{
  int *p = vm::make<int> (argc);
  sink = p;
  std::free (p);			// { dg-message "memprof: free -> __mp_free" }
  vm::heap h;
  sink = h.cell (32);
  try
    {
      guard g;
      sink = GC_malloc_atomic (argc);	// { dg-message "memprof: GC_malloc_atomic -> __mp_GC_malloc_atomic" }
      may_throw ();
      sink = strdup ("x");		// { dg-message "memprof: strdup -> __mp_strdup" }
    }
  catch (...)
    {
      return 1;
    }
  return 0;
}
