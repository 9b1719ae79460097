/* hooks.c -- Boehm's callbacks: ours, with the program's chained after
   them.

   The runtime counts collections through three of Boehm's callbacks
   (the collection events, the start of a full collection, heap growth),
   and Boehm holds one of each.  A program, a language VM above all, may
   set its own before memprof starts Boehm or after.  The plugin rewrites
   the program's calls of the setters and getters into the ones here
   (callees.cc), which keep the program's callback to call after ours and
   give it back when asked, so that ours stay in place and no collection
   goes uncounted.  Code built without the plugin cannot be seen: its
   setter replaces ours, which generations.c notices later and undoes
   with a warning (mp_hooks_install), since the collections in between
   were lost.

   Boehm calls these holding its lock, and the program's callbacks may
   call an instrumented malloc, whose sampling slow path delivers what
   is due (mp_deliver): tracker callbacks, finalisers, a compaction,
   which call Boehm and would wait for ever for the lock this thread
   holds.  So while a callback runs, deliveries wait (mp_hooks_busy), and
   every thread is sent back to its slow path when it returns.  */

#include <stdatomic.h>
#include "generations.h"
#include "sample.h"

#include "gcweak.h"

/* The program's callbacks.  Any thread sets them, atomically; the
   collector reads them under the GC lock.  */
static _Atomic (GC_on_collection_event_proc) chained_event;
static _Atomic (GC_start_callback_proc) chained_start;
static _Atomic (GC_on_heap_resize_proc) chained_resize;

/* This thread's Boehm callbacks under way, and whether a delivery waited
   for them to return.  */
static __thread int busy, waited;

int
mp_hooks_busy (void)
{
  waited |= busy;
  return busy;
}

static void
leave (void)
{
  if (--busy == 0 && waited)
    {
      waited = 0;
      mp_sample_prompt ();      /* what waited, at the next allocation */
    }
}

static void
on_event (GC_EventType event)
{
  busy++;
  mp_gc_on_event (event);
  GC_on_collection_event_proc fn = atomic_load (&chained_event);
  if (fn)
    fn (event);
  leave ();
}

static void
on_full_start (void)
{
  busy++;
  mp_gc_on_full_start ();
  GC_start_callback_proc fn = atomic_load (&chained_start);
  if (fn)
    fn ();
  leave ();
}

static void
on_heap_resize (GC_word new_size)
{
  busy++;
  mp_gc_on_heap_resize (new_size);
  GC_on_heap_resize_proc fn = atomic_load (&chained_resize);
  if (fn)
    fn (new_size);
  leave ();
}

/* For each callback: if Boehm's is not ours, the program's (set by code
   built without the plugin, or before Boehm started) is chained, unless
   it is none, and ours goes back.  */
#define INSTALL(get, set, ours, chained)                                    \
  do                                                                        \
    {                                                                       \
      void *now = (void *) get ();                                          \
      if (now != (void *) ours)                                             \
        {                                                                   \
          replaced |= after_start;                                          \
          if (now != NULL)                                                  \
            atomic_store (&chained, (__typeof__ (ours) *) now);             \
          set (ours);                                                       \
        }                                                                   \
    }                                                                       \
  while (0)

int
mp_hooks_install (int after_start)
{
  int replaced = 0;
  INSTALL (GC_get_on_collection_event, GC_set_on_collection_event, on_event,
           chained_event);
  INSTALL (GC_get_start_callback, GC_set_start_callback, on_full_start,
           chained_start);
  INSTALL (GC_get_on_heap_resize, GC_set_on_heap_resize, on_heap_resize,
           chained_resize);
  return replaced;
}

/* The program's setter of Boehm's callback NAME, and its getter: the
   program sees what it set, not ours.  Before Boehm has started, ours
   are not in place yet: mp_hooks_install keeps what was set here.  The
   setter is the program's latest word: a callback that code built
   without the plugin put in ours' place meanwhile is dropped, as the
   setter would have dropped it.  */
#define HOOK(name, type, ours, chained)                                     \
  MP_API void __mp_GC_set_##name (type fn)                                  \
  {                                                                         \
    atomic_store (&chained, fn);                                            \
    if (mp_gc_started () && GC_get_##name () != ours)                       \
      GC_set_##name (ours);                                                 \
  }                                                                         \
  MP_API type __mp_GC_get_##name (void)                                     \
  {                                                                         \
    type now = GC_get_##name ();                                            \
    return now == ours || now == NULL ? atomic_load (&chained) : now;       \
  }

HOOK (on_collection_event, GC_on_collection_event_proc, on_event,
      chained_event)
HOOK (start_callback, GC_start_callback_proc, on_full_start, chained_start)
HOOK (on_heap_resize, GC_on_heap_resize_proc, on_heap_resize, chained_resize)
