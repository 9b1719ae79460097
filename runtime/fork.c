/* fork.c -- a child forked while other threads are inside the runtime.

   fork copies the calling thread alone.  A lock held by any other thread
   at that moment stays held in the child, by no one, and the child's
   next allocation, callback or exit report would wait for it forever.
   So the runtime's locks are all taken before fork and released on both
   sides after it, from pthread_atfork handlers; glibc does the same for
   malloc and stdio, and Boehm for its allocation lock, at GC_init.

   The handlers must take the locks in an order no thread can take them
   in the other way, and Boehm's lock sits in the middle of that order:

     outer   control.c's and finalise.c's register_lock are held while
             calling Boehm, which takes its lock: they come before it;
     Boehm   its own prepare handler;
     inner   the rest are taken by the collector itself, holding Boehm's
             lock (tracked.c, finalise.c, profile.c, timeline.c), or hold
             no other lock (sample.c, sites.c, symbols.c): they come after.
             tracked.c's lock is held while taking profile.c's.  Last,
             the captures under way in libunwind (callstack.c).

   glibc runs prepare handlers in the reverse order of their
   registration, and the others in that order.  So the inner handler is
   registered when the runtime starts, from a constructor that runs
   before the program's (init.c), hence before Boehm's; the outer one
   once Boehm has started and registered its own (mp_fork_boehm_started).
   Before that, no outer lock is held while waiting for Boehm, and the
   inner handler takes them itself.

   Boehm started before the runtime (by another shared library's
   constructor, say) has its handler registered first, so it runs last:
   taken there, the inner locks would come before its lock, and a fork
   while a collection ends would deadlock.  So then one handler takes
   them all, the inner ones holding Boehm's lock for a moment
   (boehm_first_prepare), and the collector, which can take Boehm's lock
   again before Boehm's prepare handler does, goes into its sections
   without their locks while the fork holds them (mp_collector_lock):
   the fork keeps out every other thread, and touches nothing.  The
   parent's handler gives them back holding Boehm's lock, so that no
   collection is inside one of those sections then.

   Limit: a program that starts Boehm before the runtime with its fork
   handling off (GC_set_handle_fork (0)) and calls GC_atfork_prepare
   itself holds Boehm's lock when our handler asks for it, and hangs.
   Boehm does not say which way it handles fork.

   In the child, deliveries that another thread had under way are
   abandoned, so that the child delivers its own (mp_fork_step's CHILD
   step in tracked.c, finalise.c and sample.c).  */

#include <pthread.h>
#include <stdatomic.h>
#include "internal.h"

#define GC_THREADS
#include <gc.h>

typedef void (*fork_step_fn) (enum mp_fork_step step);

/* In the order they are taken.  */
static const fork_step_fn outer[] = { mp_control_fork, mp_finalise_register_fork };
static const fork_step_fn inner[] = {
  mp_finalise_fork, mp_tracked_fork, mp_profile_fork, mp_timeline_fork,
  mp_sample_fork, mp_sites_fork, mp_symbols_fork, mp_callstack_fork,
};

#define N_OF(a) (sizeof (a) / sizeof (a)[0])

enum handler { NO_HANDLER, OUTER_HANDLER, INNER_HANDLER };

/* The handler that took the outer locks in this thread's fork under way.
   Per thread: glibc may run the handlers of two threads' forks at once
   (they queue on the locks themselves).  */
static __thread enum handler outer_taken_by;

static void
run (const fork_step_fn *fns, size_t n, enum mp_fork_step step)
{
  if (step == MP_FORK_PREPARE)
    for (size_t i = 0; i < n; i++)
      fns[i] (step);
  else
    for (size_t i = n; i-- > 0;)
      fns[i] (step);
}

static void
outer_prepare (void)
{
  run (outer, N_OF (outer), MP_FORK_PREPARE);
  outer_taken_by = OUTER_HANDLER;
}

static void
inner_prepare (void)
{
  if (outer_taken_by == NO_HANDLER)
    {
      run (outer, N_OF (outer), MP_FORK_PREPARE);
      outer_taken_by = INNER_HANDLER;
    }
  run (inner, N_OF (inner), MP_FORK_PREPARE);
}

/* Release the locks that handler H took, for STEP.  */
static void
release (enum handler h, enum mp_fork_step step)
{
  if (h == INNER_HANDLER)
    run (inner, N_OF (inner), step);
  if (outer_taken_by == h)
    {
      run (outer, N_OF (outer), step);
      outer_taken_by = NO_HANDLER;
    }
}

static void inner_parent (void) { release (INNER_HANDLER, MP_FORK_PARENT); }
static void inner_child (void) { release (INNER_HANDLER, MP_FORK_CHILD); }
static void outer_parent (void) { release (OUTER_HANDLER, MP_FORK_PARENT); }
static void outer_child (void) { release (OUTER_HANDLER, MP_FORK_CHILD); }

/* ---- Boehm started first ----------------------------------------------- */

/* Set when the runtime starts if Boehm had started before it; read-only
   afterwards.  */
static int boehm_first;

/* Set while the handlers of a fork under way hold the inner locks, when
   Boehm started first.  Written holding Boehm's lock (or in the child,
   alone), and read holding it by the collector that must know.  */
static atomic_int held_for_fork;

/* Nonzero while this thread runs the runtime's collection callback,
   which Boehm calls holding its lock (generations.c).  */
static __thread int collecting;

/* Holding Boehm's lock, so that no collection is inside one of the
   sections when held_for_fork says they are the fork's.  */
static void *
take_inner (void *unused)
{
  (void) unused;
  run (inner, N_OF (inner), MP_FORK_PREPARE);
  atomic_store_explicit (&held_for_fork, 1, memory_order_relaxed);
  return NULL;
}

static void *
release_inner (void *unused)
{
  (void) unused;
  atomic_store_explicit (&held_for_fork, 0, memory_order_relaxed);
  run (inner, N_OF (inner), MP_FORK_PARENT);
  return NULL;
}

/* Boehm's prepare handler runs after this one, and may finish a
   collection in this thread, calling our callbacks.  */
static void
boehm_first_prepare (void)
{
  run (outer, N_OF (outer), MP_FORK_PREPARE);
  GC_call_with_alloc_lock (take_inner, NULL);
}

/* Boehm's parent handler has released its lock, which a collection may
   hold again, in one of the sections this fork holds the locks of.  */
static void
boehm_first_parent (void)
{
  GC_call_with_alloc_lock (release_inner, NULL);
  run (outer, N_OF (outer), MP_FORK_PARENT);
}

static void
boehm_first_child (void)
{
  atomic_store_explicit (&held_for_fork, 0, memory_order_relaxed);
  run (inner, N_OF (inner), MP_FORK_CHILD);
  run (outer, N_OF (outer), MP_FORK_CHILD);
}

void
mp_collector_lock (pthread_mutex_t *lock)
{
  if (!atomic_load_explicit (&held_for_fork, memory_order_relaxed)
      || !collecting)
    pthread_mutex_lock (lock);
}

void
mp_collector_unlock (pthread_mutex_t *lock)
{
  if (!atomic_load_explicit (&held_for_fork, memory_order_relaxed)
      || !collecting)
    pthread_mutex_unlock (lock);
}

void
mp_collector_enter (void)
{
  collecting++;
}

void
mp_collector_leave (void)
{
  collecting--;
}

/* ---- registration ------------------------------------------------------- */

static void
handle (void (*prepare) (void), void (*parent) (void), void (*child) (void))
{
  if (pthread_atfork (prepare, parent, child) != 0)
    mp_warn ("cannot register fork handlers; a child forked while "
             "threads allocate may hang");
}

/* The runtime is starting (init.c).  */
void
mp_fork_setup (void)
{
  boehm_first = GC_is_init_called ();
  if (boehm_first)
    handle (boehm_first_prepare, boehm_first_parent, boehm_first_child);
  else
    handle (inner_prepare, inner_parent, inner_child);
}

/* Boehm has started, with its fork handlers registered (generations.c);
   no outer lock has been held while calling it yet.  */
void
mp_fork_boehm_started (void)
{
  if (!boehm_first)
    handle (outer_prepare, outer_parent, outer_child);
}

/* See mp_fork_step in internal.h.  */
void
mp_fork_mutex (pthread_mutex_t *lock, enum mp_fork_step step)
{
  if (step == MP_FORK_PREPARE)
    pthread_mutex_lock (lock);
  else
    pthread_mutex_unlock (lock);
}
