/* Run by interpose.exp, not as a dg test, with guest-unload-lib.c's
   object in argv[1].  A toy interpreter (mpguest.h) runs procedure
   outer, whose activation calls the object's guest_unload_run, which
   runs inner in a second activation, which allocates.  Once the object
   is unloaded, its frame in the sampled stacks is a retired word: it
   is still a C frame, so the report shows inner run by the inner
   activation, called from the object, called from the outer
   activation, which runs outer, called from main (interpose.exp reads
   the report).  */

#include <dlfcn.h>
#include <stdlib.h>
#include "../lib/mptest.h"

static const char *const names[2] = { "outer", "inner" };
#define MPT_GUEST_PROCS 2
#define MPT_GUEST_NAME(p) names[p]
#define MPT_GUEST_LINE(p) (1 + 4 * (unsigned) (p))
#include "../lib/mpguest.h"

void *volatile sink;
static void (*run) (void (*) (int), int);

/* The VM's entry function: runs procedure P.  */
__attribute__ ((noinline)) static void
interp (int p)
{
  mpt_shadow[mpt_depth++] = (uintptr_t) p;
  if (p == 0)
    run (interp, 1);
  else
    sink = malloc (48);
  mpt_depth--;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 2);
  void *h = argc == 2 ? dlopen (argv[1], RTLD_NOW) : NULL;
  CHECK (h != NULL);
  run = h ? (void (*) (void (*) (int), int)) dlsym (h, "guest_unload_run")
        : NULL;
  CHECK (run != NULL);
  if (run == NULL)
    return mpt_done ();
  struct mp_frame_provider fp = { mpt_capture, mpt_symbolise,
                                  (const void *) interp, NULL };
  CHECK_EQ (mp_set_frame_provider (&fp), 0);
  struct mp_tracker none = { 0 };
  CHECK_EQ (mp_memprof_start (1, 64, &none), 0);
  for (int i = 0; i < 10; i++)
    interp (0);
  CHECK_EQ (dlclose (h), 0);
  return mpt_done ();
}
