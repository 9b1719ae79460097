/* control.c -- OCaml's Gc.control record on Boehm: mp_get and mp_set.

   Each field is described once, in fields.c: its names and its range;
   here, how it reads and how it takes effect.

   Most fields only need storing.  Those that reach Boehm (space_overhead,
   incremental) take effect at once if Boehm is running, else when it
   starts (mp_control_boehm_setup).  Boehm may refuse incremental mode
   (GC_DISABLE_INCREMENTAL in its environment, its leak detector, no way
   to track dirty pages): mp_set starts Boehm to ask it, and fails
   without changing anything, and MEMPROF's incremental=1 is dropped with
   a warning when Boehm starts, so that mp_get tells what is.
   stack_limit is the process's RLIMIT_STACK; minor_heap_size, verbose
   and max_overhead are read by the collector's callbacks and the
   allocation paths through atomics.  */

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <sys/resource.h>
#include "boehm.h"
#include "generations.h"
#include "config.h"
#include "fields.h"
#include "fork.h"
#include "init.h"
#include "control.h"

#include "gcweak.h"

/* The settings, as mp_get shows them (but see the derived fields in
   read_field).  Guarded by control_lock, like boehm_ready, which says
   that mp_control_boehm_setup has applied them to a running Boehm.  */
static pthread_mutex_t control_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mp_control current = {
  .minor_heap_size = 0, .major_heap_increment = 15, .space_overhead = 0,
  .verbose = MP_VERBOSE_EXIT_STAT, .max_overhead = MP_NEVER_COMPACT,
  .stack_limit = 0, .allocation_policy = 2, .window_size = 1,
  .custom_major_ratio = 44, .custom_minor_ratio = 100,
  .custom_minor_max_size = 70000, .incremental = 0,
};
static int boehm_ready;

/* Boehm's free space divisor before anything sets it (its
   GC_FREE_SPACE_DIVISOR), what GC_get_free_space_divisor answers before
   GC_init: space_overhead's value in a process without libgc.  */
#define BOEHM_DIVISOR 3

/* What the hot paths read (internal.h); control_lock orders writers.  */
_Atomic long mp_verbose = MP_VERBOSE_EXIT_STAT;
_Atomic long mp_max_overhead = MP_NEVER_COMPACT;

static long *
slot (struct mp_control *c, int f)
{
  return (long *) ((char *) c + mp_fields[f].offset);
}

static long
get (const struct mp_control *c, int f)
{
  return *slot ((struct mp_control *) c, f);
}

/* Boehm's free-space divisor for SPACE_OVERHEAD percent, and back: D
   lets about 2/D of the heap be allocated between collections.  */
static GC_word
divisor_for (long overhead)
{
  long d = (200 + overhead / 2) / overhead;
  return d < 1 ? 1 : (GC_word) d;
}

static long
stack_limit_now (void)
{
  struct rlimit r;
  if (getrlimit (RLIMIT_STACK, &r) != 0 || r.rlim_cur == RLIM_INFINITY
      || r.rlim_cur / sizeof (void *) >= (rlim_t) NO_STACK_LIMIT)
    return NO_STACK_LIMIT;
  return (long) (r.rlim_cur / sizeof (void *));
}

/* Field F as mp_get shows it, under control_lock: the fields that live
   outside memprof are read where they live.  */
static long
read_field (int f)
{
  switch (f)
    {
    case F_SPACE_OVERHEAD:
      {
        GC_word d = mp_gc_linked () ? GC_get_free_space_divisor ()
                                    : BOEHM_DIVISOR;
        long o = current.space_overhead;
        if (o && (!boehm_ready || divisor_for (o) == d))
          return o;
        return (long) ((200 + d / 2) / d);
      }
    case F_STACK_LIMIT:
      return stack_limit_now ();
    case F_INCREMENTAL:
      return boehm_ready ? GC_is_incremental_mode () : current.incremental;
    default:
      return get (&current, f);
    }
}

/* Whether V is a value field F can take now, under control_lock.  */
static int
acceptable (int f, long v)
{
  if (v < mp_fields[f].min || v > mp_fields[f].max)
    return 0;
  switch (f)
    {
    case F_MINOR_HEAP_SIZE:
      return v == 0 || v >= MP_MIN_MINOR_HEAP;
    case F_INCREMENTAL:         /* Boehm cannot switch it off */
      return v == 1 || !boehm_ready || !GC_is_incremental_mode ();
    case F_STACK_LIMIT:
      {
        struct rlimit r;
        return getrlimit (RLIMIT_STACK, &r) == 0
               && (r.rlim_max == RLIM_INFINITY
                   || (v < NO_STACK_LIMIT
                       && (rlim_t) v <= r.rlim_max / sizeof (void *)));
      }
    default:
      return 1;
    }
}

static void
set_stack_limit (long v)
{
  struct rlimit r;
  getrlimit (RLIMIT_STACK, &r);
  r.rlim_cur = v == NO_STACK_LIMIT ? RLIM_INFINITY
                                   : (rlim_t) v * sizeof (void *);
  if (setrlimit (RLIMIT_STACK, &r) != 0)
    mp_warn ("cannot set the stack limit: %s", strerror (errno));
}

/* Make field F V, under control_lock; acceptable (F, V) holds.  Boehm's
   incremental mode is switched on by the caller, after unlocking
   (unlock_control).  */
static void
apply (int f, long v)
{
  *slot (&current, f) = v;
  switch (f)
    {
    case F_MINOR_HEAP_SIZE:
      mp_young_set_budget ((uint64_t) v);
      break;
    case F_SPACE_OVERHEAD:
      if (boehm_ready)
        GC_set_free_space_divisor (divisor_for (v));
      break;
    case F_VERBOSE:
      atomic_store (&mp_verbose, v);
      break;
    case F_MAX_OVERHEAD:
      atomic_store (&mp_max_overhead, v);
      break;
    case F_STACK_LIMIT:
      set_stack_limit (v);
      break;
    default:
      break;
    }
}

/* Whether Boehm's incremental mode is to be switched on, under
   control_lock.  It is switched on after unlocking, since Boehm takes
   its lock to do it, and no lock of ours may be held while calling
   Boehm then (see fork.c); switching it on twice is harmless.  So an
   mp_set that turns it off, racing with one that turns it on, may
   succeed before the other's takes effect: the calls are ordered as if
   it came first.  */
static int
incremental_due (void)
{
  return boehm_ready && current.incremental && !GC_is_incremental_mode ();
}

/* Switch Boehm's incremental mode on, without control_lock; 0 if Boehm
   refused.  */
static int
enable_incremental (void)
{
  GC_enable_incremental ();
  return GC_is_incremental_mode ();
}

/* Unlock control_lock, switching Boehm's incremental mode on if due; if
   Boehm refuses, the setting goes back to 0.  */
static void
unlock_control (void)
{
  int due = incremental_due ();
  pthread_mutex_unlock (&control_lock);
  if (!due || enable_incremental ())
    return;
  pthread_mutex_lock (&control_lock);
  current.incremental = 0;
  pthread_mutex_unlock (&control_lock);
  mp_warn ("Boehm refuses incremental mode (GC_DISABLE_INCREMENTAL?): "
           "incremental=1 ignored");
}

/* Start Boehm if incremental mode waits for it, so that what mp_get and
   mp_set say of it is Boehm's answer.  */
static void
start_for_incremental (long wanted)
{
  pthread_mutex_lock (&control_lock);
  int start = !boehm_ready && (wanted == 1 || current.incremental);
  pthread_mutex_unlock (&control_lock);
  if (start && mp_gc_linked ())       /* without libgc, only the value */
    mp_gc_self ();
}

/* 0 if every field of C can be set now, under control_lock; else an
   errno.  Boehm's incremental mode, if C turns it on, is switched on
   first, without the lock: ENOTSUP if Boehm refuses.  */
static int
settable (const struct mp_control *c)
{
  for (int f = 0; f < F_COUNT; f++)
    if (!acceptable (f, get (c, f)))
      return EINVAL;
  if (c->incremental != 1 || !boehm_ready || GC_is_incremental_mode ())
    return 0;
  pthread_mutex_unlock (&control_lock);
  int on = enable_incremental ();
  pthread_mutex_lock (&control_lock);
  return on ? settable (c) : ENOTSUP;
}

MP_API void
mp_get (struct mp_control *c)
{
  mp_init ();
  start_for_incremental (0);
  pthread_mutex_lock (&control_lock);
  for (int f = 0; f < F_COUNT; f++)
    *slot (c, f) = read_field (f);
  pthread_mutex_unlock (&control_lock);
}

/* The verbose flag first, so that the messages of this call follow it,
   as OCaml's Gc.set does.  */
MP_API int
mp_set (const struct mp_control *c)
{
  mp_init ();
  if (c == NULL)
    {
      errno = EINVAL;
      return -1;
    }
  start_for_incremental (c->incremental);
  pthread_mutex_lock (&control_lock);
  int err = settable (c);
  if (err)
    {
      pthread_mutex_unlock (&control_lock);
      errno = err;
      return -1;
    }
  apply (F_VERBOSE, c->verbose);
  for (int f = 0; f < F_COUNT; f++)
    {
      long v = get (c, f);
      if (f == F_VERBOSE || v == read_field (f))
        continue;
      apply (f, v);
      mp_gc_message (MP_VERBOSE_PARAMS, "new %s: %ld", mp_fields[f].name, v);
    }
  unlock_control ();
  return 0;
}

/* Set field F to V from MEMPROF, silently; -1 if V is out of range.  */
int
mp_control_preset (int f, long v)
{
  pthread_mutex_lock (&control_lock);
  int ok = acceptable (f, v);
  if (ok)
    apply (f, v);
  unlock_control ();
  return ok ? 0 : -1;
}

/* Boehm has just started (generations.c): give it the settings that
   wait for it.  */
void
mp_control_boehm_setup (void)
{
  pthread_mutex_lock (&control_lock);
  boehm_ready = 1;
  if (current.space_overhead)
    GC_set_free_space_divisor (divisor_for (current.space_overhead));
  unlock_control ();
  size_t want = mp_config.init_heap_words * sizeof (void *);
  size_t have = GC_get_heap_size ();
  if (want > have && !GC_expand_hp (want - have))
    mp_warn ("cannot grow the heap to init_heap_size (%lu words)",
             mp_config.init_heap_words);
}

/* See fork.c.  */
void
mp_control_fork (enum mp_fork_step step)
{
  mp_fork_mutex (&control_lock, step);
}
