// A sized delete, where the runtime does not tag blocks because malloc
// is not glibc's but the program's (here ASan's, in a program built with
// -fsanitize=address and the plain runtime, as memprof-g++ links it):
// the operator new behind it is asked for the size the program asked,
// since its delete, which cannot tell the block ours, passes that size
// on, which ASan checks (new-delete-type-mismatch otherwise).  And the
// vector's growth, which deletes with sizes too.  Built by
// interpose.exp, with the shared runtime behind ASan's.

#include <cstdio>
#include <new>
#include <vector>

int
main ()
{
  for (int i = 1; i <= 64; i++)
    {
      int *p = static_cast<int *> (::operator new (sizeof (int) * i));
      p[0] = i;
      ::operator delete (p, sizeof (int) * i);
    }
  std::vector<int> v;
  for (int i = 0; i < 10000; i++)
    v.push_back (i);
  std::puts ("ok");
  return 0;
}
