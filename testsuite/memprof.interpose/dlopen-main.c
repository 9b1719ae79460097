/* Run by interpose.exp, not as a dg test: dlopen-lib.c's shared object,
   built with the plugin, is loaded, called and unloaded three times.
   Its sites are counted exactly each time, and outlive it: mp_site_foreach
   and the report at exit, after the last dlclose, still name them.  */

#include <dlfcn.h>
#include <string.h>
#include "../lib/mptest.h"

static int
lib_sites (const struct mp_site_info *i, void *data)
{
  struct mp_alloc_stats *sum = data;
  const char *tail = strrchr (i->file, '/');
  if (strcmp (tail ? tail + 1 : i->file, "dlopen-lib.c") == 0)
    mpt_add_stats (sum, &i->stats);
  return 0;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 2);
  for (int round = 0; round < 3; round++)
    {
      void *lib = dlopen (argv[1], RTLD_NOW);
      CHECK (lib != NULL);
      if (lib == NULL)
        break;
      void (*lib_alloc) (void) = (void (*) (void)) dlsym (lib, "lib_alloc");
      CHECK (lib_alloc != NULL);
      if (lib_alloc)
        lib_alloc ();
      CHECK_EQ (dlclose (lib), 0);
      /* dlclose really unloads it.  Asked of the loader, not of
         /proc/self/maps: a sample that fell in the object had it named
         at dlclose, and libdw keeps the file it read mapped.  */
      CHECK (dlopen (argv[1], RTLD_NOW | RTLD_NOLOAD) == NULL);
    }
  struct mp_alloc_stats sum;
  memset (&sum, 0, sizeof sum);
  mp_site_foreach (lib_sites, &sum);
  CHECK_EQ (sum.numAllocateOK, 30);
  CHECK_EQ (sum.bytesAllocated, 3000);
  CHECK_EQ (sum.numDeallocate, 15);
  CHECK_EQ (sum.bytesContracted, 1500);
  return mpt_done ();
}
