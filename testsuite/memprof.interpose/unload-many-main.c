/* Run by interpose.exp, not as a dg test, with unload-many-lib.c's
   object in argv[1], loaded, called and unloaded LOADS times, every
   call sampled: each unload retires the frames of its hundred calls,
   which must find those of the loads before among many.  Counts stay
   exact, and the report (interpose.exp reads it) has one stack for
   each call, with the samples of every load.  Halfway, a report names
   the program's own unload_many, a namesake of the object's: the
   frames retired so far are renamed, and those of the later unloads,
   named so too, must still find them.  */

#include <dlfcn.h>
#include <string.h>
#include "../lib/mptest.h"

#define LOADS 300
#define CALLS 100               /* unload_many's */

void *volatile sink;

/* The object's unload_many's namesake, sampled.  */
static __attribute__ ((noinline)) void
unload_many (void)
{
  sink = malloc (1000);
}

/* A report, which names every frame of the profile.  */
static void
report_now (void)
{
  FILE *f = fopen ("/dev/null", "w");
  CHECK (f != NULL);
  if (f != NULL)
    mp_report (f);
  if (f != NULL)
    fclose (f);
}

static int
lib_sites (const struct mp_site_info *i, void *data)
{
  struct mp_alloc_stats *sum = data;
  const char *tail = i->file ? strrchr (i->file, '/') : NULL;
  if (tail && strcmp (tail + 1, "unload-many-lib.c") == 0)
    mpt_add_stats (sum, &i->stats);
  return 0;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 2);
  unload_many ();
  for (int i = 0; i < LOADS && argc == 2; i++)
    {
      if (i == LOADS / 2)
        report_now ();
      void *h = dlopen (argv[1], RTLD_NOW);
      void (*fn) (void) = h ? (void (*) (void)) dlsym (h, "unload_many")
                          : NULL;
      CHECK (fn != NULL);       /* loaded, and unload_many found */
      if (fn == NULL)
        break;
      fn ();
      CHECK_EQ (dlclose (h), 0);
    }
  struct mp_alloc_stats sum;
  memset (&sum, 0, sizeof sum);
  mp_site_foreach (lib_sites, &sum);
  CHECK_EQ (sum.numAllocate, LOADS * CALLS);
  CHECK_EQ (sum.bytesAllocated, LOADS * CALLS * (CALLS + 1) / 2);
  return mpt_done ();
}
