/* A program that sets a null has_static_roots callback, which Boehm
   takes for none, has every section of its own scanned again, as Boehm
   would: memprof's callback in front of it (runtime/roots.c) keeps
   refusing the libraries memprof loaded, and takes the rest.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1" } */

#define _GNU_SOURCE

#include <gc.h>
#include "../lib/mptest.h"
#include "../lib/mproots.h"

/* Refuses the program's own sections (whose name is empty).  */
static int GC_CALLBACK
refuse_program (const char *name, void *start, size_t size)
{
  (void) start, (void) size;
  return name[0] != '\0';
}

int
main (void)
{
  GC_INIT ();
  CHECK (GC_MALLOC (16) != NULL);       /* memprof starts; libunwind */
  GC_register_has_static_roots_callback (refuse_program);
  collect ();
  mpr_watch ();
  CHECK (mpr_gone ());                  /* the callback was followed */
  GC_register_has_static_roots_callback (NULL);
  collect ();
  mpr_watch ();
  CHECK (!mpr_gone ());
  mpr_read_roots ();
  mpr_check_own_libs (0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
