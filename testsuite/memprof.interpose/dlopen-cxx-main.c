/* Run by interpose.exp, not as a dg test: a C program linked with the
   shared runtime, whose C++ operators are then the process's, loads a
   C++ library built without the plugin (dlopen-cxx-lib.C), which brings
   libstdc++ and libgcc_s in its own scope.  Before it, neither is
   mapped: the runtime loads no unwinder for a C program (unwinder.c).
   After it, the library's news and deletes are counted exactly (once
   the operators have found libstdc++'s at their first call); a new
   that fails throws std::bad_alloc, and one whose new_handler throws
   lets that exception through, counted as failed by the cleanup that
   the unwinder runs in the runtime's frames.  */

#include <dlfcn.h>
#include <string.h>
#include "../lib/mptest.h"
#include "../lib/mpmaps.h"

static void *
symbol (void *lib, const char *name)
{
  void *f = dlsym (lib, name);
  if (f == NULL)
    {
      printf ("%s: %s\n", name, dlerror ());
      exit (1);
    }
  return f;
}

/* The failed allocations so far.  */
static int64_t
failures (void)
{
  struct mp_alloc_stats s;
  mp_alloc_stats (&s);
  return s.numAllocate - s.numAllocateOK;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 2);
  CHECK (!mpt_mapped ("/libgcc_s.so"));
  CHECK (!mpt_mapped ("/libstdc++.so"));
  void *lib = dlopen (argv[1], RTLD_NOW);
  if (lib == NULL)
    {
      printf ("%s\n", dlerror ());
      return 1;
    }
  CHECK (mpt_mapped ("/libgcc_s.so"));
  void (*news) (void) = (void (*) (void)) symbol (lib, "lib_news");
  int (*bad_alloc) (void) = (int (*) (void)) symbol (lib, "lib_bad_alloc");
  int (*handler_throws) (void)
    = (int (*) (void)) symbol (lib, "lib_handler_throws");

  /* The first call of each operator finds libstdc++'s, and what the
     dynamic loader frees meanwhile may be the program's.  */
  news ();
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
  news ();
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocateOK - s0.numAllocateOK, 10);
  CHECK_EQ (s1.bytesAllocated - s0.bytesAllocated, 10 * 4 * sizeof (int));
  CHECK_EQ (s1.numDeallocate - s0.numDeallocate, 5);
  CHECK_EQ (s1.bytesUsed - s0.bytesUsed, 5 * 4 * sizeof (int));

  int64_t f0 = failures ();
  CHECK_EQ (bad_alloc (), 1);
  CHECK_EQ (failures () - f0, 1);
  CHECK_EQ (handler_throws (), 1);
  CHECK_EQ (failures () - f0, 2);
  puts ("ok");
  return 0;
}
