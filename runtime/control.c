/* control.c -- OCaml's Gc.minor, major_slice, major, full_major and
   compact, on Boehm.

   Boehm collects the whole heap at once unless its incremental mode is
   on, so these map onto few calls: a minor collection must end the youth
   of every young block, which any collection does (generations.c); in
   incremental mode Boehm's partial collections do it, otherwise only a
   full one.  A slice is GC_collect_a_little.  major and full_major force
   a full collection, full_major runs the finalisers it found and
   collects again what they left; compact also returns free memory to the
   system.  Each of them then delivers the callbacks due (the tracker's,
   finalise_last's, alarms'), as OCaml runs them before returning.  */

#include "internal.h"

#define GC_THREADS
#include <gc.h>

/* Compactions and full collections the program asked for: any thread,
   atomically.  */
mp_counter mp_compactions, mp_forced_majors;

MP_API void
mp_minor (void)
{
  struct mp_thread *t = mp_gc_self ();
  uint64_t epoch = atomic_load (&mp_gc_epoch);
  if (GC_is_incremental_mode ())
    for (int i = 0; i < 1000 && atomic_load (&mp_gc_epoch) == epoch; i++)
      GC_collect_a_little ();
  if (atomic_load (&mp_gc_epoch) == epoch)
    GC_gcollect ();
  mp_deliver (t);
}

MP_API long
mp_major_slice (long n)
{
  (void) n;                     /* Boehm's slices have their own size */
  struct mp_thread *t = mp_gc_self ();
  GC_collect_a_little ();
  mp_deliver (t);
  return 0;
}

MP_API void
mp_major (void)
{
  struct mp_thread *t = mp_gc_self ();
  atomic_fetch_add (&mp_forced_majors, 1);
  GC_gcollect ();
  mp_deliver (t);
}

MP_API void
mp_full_major (void)
{
  struct mp_thread *t = mp_gc_self ();
  atomic_fetch_add (&mp_forced_majors, 1);
  GC_gcollect ();
  GC_invoke_finalizers ();
  GC_gcollect ();
  mp_deliver (t);
}

MP_API void
mp_compact (void)
{
  struct mp_thread *t = mp_gc_self ();
  atomic_fetch_add (&mp_forced_majors, 1);
  atomic_fetch_add (&mp_compactions, 1);
  GC_gcollect_and_unmap ();
  mp_deliver (t);
}
