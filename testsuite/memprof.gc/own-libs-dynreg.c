/* A library the runtime loaded for itself, and refused as a root
   (runtime/ownlibs.c), that the program uses too: a JIT registers its
   procedures with libunwind (_U_dyn_register), which keeps them on a
   list in its own bss.  A block of Boehm's heap whose only reference
   is that list stays alive, as in a plain build: libunwind's data is
   scanned again while the list holds anything.  Before, the block was
   freed.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1" } */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <gc.h>
#include "../lib/mptest.h"
#include "../lib/mproots.h"

static GC_hidden_pointer link_;

/* Register a new block, as a procedure's unwind information, with
   REGISTER; keep it nowhere else but behind a disappearing link.  */
static void __attribute__ ((noinline))
register_block (void (*register_it) (void *))
{
  void *info = GC_MALLOC (256);         /* zeroed: no procedure at all */
  CHECK (info != NULL);
  mpt_watch (&link_, GC_HIDE_POINTER (info));
  register_it (info);
}

int
main (void)
{
  GC_INIT ();
  CHECK (GC_MALLOC (16) != NULL);       /* sampled: the runtime's libunwind */
  mpr_read_roots ();
  mpr_check_own_libs (0);               /* refused while the list is empty */
  void *lib = dlopen ("libunwind.so.8", RTLD_NOW);
  CHECK (lib != NULL);
  void (*register_it) (void *)
    = (void (*) (void *)) dlsym (lib, "_U_dyn_register");
  CHECK (register_it != NULL);
  register_block (register_it);
  for (int i = 0; i < 3; i++)
    collect ();
  CHECK (link_ != 0);                   /* kept by libunwind's list */
  mpr_read_roots ();
  int seen, rooted = mpr_rooted ("/libunwind.so", &seen);
  CHECK (seen > 0);
  CHECK_EQ (rooted, seen);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
