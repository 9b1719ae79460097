/* fork.c -- a child forked while other threads are inside the runtime.

   fork copies the calling thread alone.  A lock held by any other thread
   at that moment stays held in the child, by no one, and the child's
   next allocation, callback or exit report would wait for it forever.
   So the runtime's locks are all taken before fork and released on both
   sides after it, from pthread_atfork handlers; glibc does the same for
   malloc and stdio, and Boehm for its allocation lock, at GC_init.

   Boehm's lock comes first: the collector takes some of ours holding it
   (profile.c's, which tracked.c shares, finalise.c's and timeline.c's),
   and none of ours is ever held while calling Boehm (control.c and
   finalise.c take care of that); none of those three is held while
   taking another.  Last, libunwind's locks: the captures under way,
   and the exits of the threads that captured, which give libunwind's
   caches back (callstack.c).

   glibc runs prepare handlers in the reverse order of their
   registration.  Ours is registered when the runtime starts, from a
   constructor that runs before the program's (init.c), so before
   Boehm's when the runtime starts Boehm: Boehm's prepare handler takes
   its lock first, and a collection cannot be inside one of our sections
   when ours takes their locks.  A program that forks by hand (Boehm's
   fork handling off, GC_set_handle_fork (0)) calls GC_atfork_prepare,
   which takes Boehm's lock, before fork: the same.

   Boehm started before the runtime (by another shared library's
   constructor, say) has its handler registered first, so it runs last:
   taken before its lock, ours would meet a collection that needs them,
   and a fork while a collection ends would deadlock.  Nor may our
   handler take Boehm's lock itself: a program that forks by hand holds
   it already.  So then the collector, which holds Boehm's lock, never
   waits for one of our locks that a fork holds: it tries them, and goes
   into their sections without them once the fork holds them all
   (mp_collector_lock).  The fork keeps out every other thread and
   touches nothing, and Boehm's lock, taken before fork copies memory,
   keeps the collector out of them then.  The parent's handler waits for
   a collection to leave those sections before it gives the locks back.

   In the child, deliveries that another thread had under way are
   abandoned, so that the child delivers its own (mp_fork_step's CHILD
   step in tracked.c, finalise.c and sample.c).  */

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include "guest.h"
#include "eventlog.h"
#include "finalise.h"
#include "callstack.h"
#include "foreign.h"
#include "fork.h"
#include "finalise.h"
#include "control.h"
#include "sample.h"
#include "profile.h"
#include "generations.h"

#include "gcweak.h"

typedef void (*fork_step_fn) (enum mp_fork_step step);

/* In the order they are taken.  The last takes none: the child makes
   the GC setup's lock again (generations.c).  */
static const fork_step_fn locks[] = {
  mp_control_fork, mp_finalise_fork, mp_tracked_fork, mp_profile_fork,
  mp_timeline_fork, mp_sample_fork, mp_sites_fork, mp_symbols_fork,
  mp_guest_fork, mp_foreign_fork, mp_callstack_fork, mp_eventlog_fork,
  mp_gc_setup_fork,
};

#define N_LOCKS (sizeof locks / sizeof locks[0])

static void
run (enum mp_fork_step step)
{
  if (step == MP_FORK_PREPARE)
    for (size_t i = 0; i < N_LOCKS; i++)
      locks[i] (step);
  else
    for (size_t i = N_LOCKS; i-- > 0;)
      locks[i] (step);
}

static void take_all (void) { run (MP_FORK_PREPARE); }
static void release_parent (void) { run (MP_FORK_PARENT); }
static void release_child (void) { run (MP_FORK_CHILD); }

/* ---- Boehm started first ----------------------------------------------- */

/* Set when the runtime starts if Boehm had started before it; read-only
   afterwards.  */
static int boehm_first;

/* Set while the handlers of a fork under way hold all the locks, when
   Boehm started first; the child clears it alone.  */
static atomic_int held_for_fork;

/* The collector's sections entered without their locks because a fork
   held them, in all threads.  Counted before held_for_fork is read, and
   both sequentially consistent, so that the parent's handler, which
   clears the flag and then reads the count, either sees a section under
   way or keeps every later one out.  */
static atomic_uint skipping;

/* Nonzero while this thread runs the runtime's collection callback,
   which Boehm calls holding its lock (generations.c).  */
static __thread int collecting;

/* The locks this thread's collection went past because a fork held
   them, so that their unlocks are skipped too.  A collection nests the
   collector's locks (profile.c's, which tracked.c shares, timeline.c's
   and finalise.c's), each once at most, so three entries suffice.  */
static __thread pthread_mutex_t *skipped[3];
static __thread unsigned n_skipped;

/* Boehm's prepare handler runs after this one (unless the program forks
   by hand, and holds Boehm's lock already), and may finish a collection
   in this thread, calling our callbacks, as may another thread until
   then: they go into their sections without the locks once the flag is
   set (mp_collector_lock).  */
static void
boehm_first_prepare (void)
{
  run (MP_FORK_PREPARE);
  atomic_store (&held_for_fork, 1);
}

/* Boehm's parent handler has released its lock, and a collection may
   be inside one of the sections this fork holds the locks of: wait for
   it to leave before giving them back.  */
static void
boehm_first_parent (void)
{
  atomic_store (&held_for_fork, 0);
  while (atomic_load (&skipping) > 0)
    sched_yield ();
  run (MP_FORK_PARENT);
}

/* The threads counted in `skipping` are not in the child.  */
static void
boehm_first_child (void)
{
  atomic_store (&held_for_fork, 0);
  atomic_store (&skipping, 0);
  run (MP_FORK_CHILD);
}

/* Go past LOCK, which the fork under way holds, if it does; 0 if it
   does not (any more).  Nested in a section gone past, the fork holds
   them all still.  */
static int
skip (pthread_mutex_t *lock)
{
  atomic_fetch_add (&skipping, 1);
  if (n_skipped > 0 || atomic_load (&held_for_fork))
    {
      skipped[n_skipped++] = lock;
      return 1;
    }
  atomic_fetch_sub (&skipping, 1);
  return 0;
}

/* When Boehm started first, a fork may hold the locks that a collection,
   holding Boehm's lock, needs: the collector must not wait for a lock
   that the fork holds, and cannot block on it to find out.  */
void
mp_collector_lock (pthread_mutex_t *lock)
{
  if (!boehm_first || !collecting)
    pthread_mutex_lock (lock);
  else
    while (pthread_mutex_trylock (lock) != 0 && !skip (lock))
      sched_yield ();
}

void
mp_collector_unlock (pthread_mutex_t *lock)
{
  for (unsigned i = n_skipped; i-- > 0;)
    if (skipped[i] == lock)
      {
        skipped[i] = skipped[--n_skipped];
        atomic_fetch_sub (&skipping, 1);
        return;
      }
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
  boehm_first = mp_gc_linked () && GC_is_init_called ();
  if (boehm_first)
    handle (boehm_first_prepare, boehm_first_parent, boehm_first_child);
  else
    handle (take_all, release_parent, release_child);
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
