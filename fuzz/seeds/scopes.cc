// scopes.cc -- a seed of the symbols fuzzer (scripts/fuzz-seeds.sh):
// functions that are not at the top level of their unit (in a
// namespace, a class), which the symboliser finds through
// dwarf_getscopes, and an inlined member function.

namespace shapes
{
  struct square
  {
    int side;
    int area () const { return side * side; }
  };

  __attribute__ ((noinline)) int
  total (const square *s, int n)
  {
    int t = 0;
    for (int i = 0; i < n; i++)
      t += s[i].area ();
    return t;
  }
}

extern "C" int
entry (int n)
{
  shapes::square s[4] = { { n }, { n + 1 }, { n + 2 }, { n + 3 } };
  return shapes::total (s, 4);
}
