/* Run by interpose.exp, not as a dg test: a program without a GC call,
   built with the plugin and the shared runtime, loads gc-dlopen-lib.c's
   shared object, which has GC calls, with dlopen.  The runtime decides
   whether libgc is there when it starts (runtime/gcweak.h): linked
   -Wl,--no-as-needed -lgc, the program has it, and the object's ten
   allocations count exactly; without, libgc comes too late, with the
   object, and its first GC call stops the program with one line that
   says how to link it.  */

#include <dlfcn.h>
#include <string.h>
#include "../lib/mptest.h"

static int
lib_sites (const struct mp_site_info *i, void *data)
{
  const char *tail = strrchr (i->file, '/');
  if (strcmp (tail ? tail + 1 : i->file, "gc-dlopen-lib.c") == 0)
    *(int64_t *) data += i->stats.numAllocateOK;
  return 0;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 2);
  void *lib = dlopen (argv[1], RTLD_NOW);
  CHECK (lib != NULL);
  void (*alloc) (void) = lib ? (void (*) (void)) dlsym (lib, "lib_gc_alloc")
                             : NULL;
  CHECK (alloc != NULL);
  if (alloc == NULL)
    return mpt_done ();
  alloc ();
  int64_t n = 0;
  mp_site_foreach (lib_sites, &n);
  CHECK_EQ (n, 10);
  return mpt_done ();
}
