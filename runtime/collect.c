/* collect.c -- OCaml's Gc.minor, major_slice, major, full_major and
   compact, on Boehm, and the compactions max_overhead asks for.

   Boehm collects the whole heap at once unless its incremental mode is
   on, so these map onto few calls: a minor collection must end the youth
   of every young block, which any collection does (generations.c); in
   incremental mode Boehm's partial collections do it, otherwise only a
   full one.  A slice is GC_collect_a_little.  major and full_major force
   a full collection, full_major runs the finalisers it found and
   collects again what they left; compact also returns free memory to the
   system.  Each of them then delivers the callbacks due (the tracker's,
   finalise_last's, alarms'), as OCaml runs them before returning.  */

#include "boehm.h"
#include "eventlog.h"
#include "collect.h"
#include "sample.h"

#include "gcweak.h"

/* Compactions, and full collections the program asked for: any thread,
   atomically.  */
mp_counter mp_compactions, mp_forced_majors;

/* Set by the collector when max_overhead asks for a compaction, which
   cannot run inside it; the next thread through mp_deliver runs it.  */
static atomic_int compact_due;

/* End the youth of every young block, without delivering; WHY forced
   it, for the event log.  */
void
mp_collect_minor (const char *why)
{
  int ev = mp_ev_forced (why);
  uint64_t epoch = atomic_load (&mp_gc_epoch);
  if (GC_is_incremental_mode ())
    for (int i = 0; i < 1000 && atomic_load (&mp_gc_epoch) == epoch; i++)
      GC_collect_a_little ();
  if (atomic_load (&mp_gc_epoch) == epoch)
    GC_gcollect ();
  mp_ev_end (MP_EV_FORCED, ev);
}

/* A process that started without libgc (gcweak.h) has no GC heap, so
   nothing to collect: a collection asked for from code the plugin did
   not see (which would have made the program need libgc) delivers
   what the trackers are owed, as any collection does, and no more.  */
static int
no_gc_heap (void)
{
  if (MP_LIKELY (mp_gc_linked ()))
    return 0;
  mp_deliver (mp_self ());
  return 1;
}

MP_API void
mp_minor (void)
{
  if (no_gc_heap ())
    return;
  struct mp_thread *t = mp_gc_self ();
  mp_collect_minor ("mp_minor");
  mp_deliver (t);
}

MP_API long
mp_major_slice (long n)
{
  (void) n;                     /* Boehm's slices have their own size */
  if (no_gc_heap ())
    return 0;
  struct mp_thread *t = mp_gc_self ();
  mp_gc_message (MP_VERBOSE_MINOR, "major slice");
  int ev = mp_ev_forced ("mp_major_slice");
  GC_collect_a_little ();
  mp_ev_end (MP_EV_FORCED, ev);
  mp_deliver (t);
  return 0;
}

MP_API void
mp_major (void)
{
  if (no_gc_heap ())
    return;
  struct mp_thread *t = mp_gc_self ();
  atomic_fetch_add (&mp_forced_majors, 1);
  int ev = mp_ev_forced ("mp_major");
  GC_gcollect ();
  mp_ev_end (MP_EV_FORCED, ev);
  mp_deliver (t);
}

MP_API void
mp_full_major (void)
{
  if (no_gc_heap ())
    return;
  struct mp_thread *t = mp_gc_self ();
  atomic_fetch_add (&mp_forced_majors, 1);
  int ev = mp_ev_forced ("mp_full_major");
  GC_gcollect ();
  GC_invoke_finalizers ();
  GC_gcollect ();
  mp_ev_end (MP_EV_FORCED, ev);
  mp_deliver (t);
}

/* A full collection that gives free memory back to the system, forced
   by WHY.  */
static void
compact (const char *why)
{
  int forced = mp_ev_forced (why), ev = mp_ev_begin (MP_EV_COMPACTION);
  atomic_fetch_add (&mp_compactions, 1);
  mp_gc_message (MP_VERBOSE_COMPACTION, "compacting heap (%zu KiB)",
                 GC_get_heap_size () >> 10);
  /* The first finds what is dead; the next two give it back.  Boehm
     8.2 unmaps a free block only when GC_gc_no has passed the number of
     the collection that freed it by more than the unmap threshold, 1 in
     GC_gcollect_and_unmap (GC_unmap_old's strict test): a block freed by
     collection N goes back in collection N + 2, not N + 1, and one
     GC_gcollect_and_unmap after the GC_gcollect never gave back what
     the GC_gcollect found dead.  Later Boehms (ivmai/bdwgc ece628e5)
     unmap in the collection that frees; the same three collections
     there keep the counts (alarms, major collections) the same.  */
  GC_gcollect ();
  GC_gcollect_and_unmap ();
  GC_gcollect_and_unmap ();
  atomic_store (&compact_due, 0);       /* what these collections asked */
  mp_heap_note_size ();
  mp_gc_message (MP_VERBOSE_COMPACTION, "compaction done (%zu KiB)",
                 GC_get_heap_size () >> 10);
  mp_ev_end (MP_EV_COMPACTION, ev);
  mp_ev_end (MP_EV_FORCED, forced);
}

MP_API void
mp_compact (void)
{
  if (no_gc_heap ())
    return;
  struct mp_thread *t = mp_gc_self ();
  atomic_fetch_add (&mp_forced_majors, 1);
  compact ("mp_compact");
  mp_deliver (t);
}

/* From the collector: max_overhead was exceeded.  */
void
mp_compact_soon (void)
{
  atomic_store (&compact_due, 1);
  mp_sample_prompt ();
}

/* In T, at a safe point: a thread Boehm does not know cannot collect,
   and leaves it to one that does.  */
void
mp_compact_if_due (struct mp_thread *t)
{
  if (t->gc_registered != MP_GC_UNKNOWN && atomic_load (&compact_due)
      && atomic_exchange (&compact_due, 0))
    compact ("max_overhead");
}
