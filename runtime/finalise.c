/* finalise.c -- OCaml's Gc.finalise, finalise_last, finalise_release and
   alarms, on Boehm's finalisation.

   Design.  Boehm gives an object one finaliser (GC_register_finalizer),
   run once the object is unreachable, with the object kept alive for it.
   OCaml allows several per value, and orders them: the finalisers of
   values found unreachable by the same collection run in the reverse
   order of their mp_finalise calls.  So each call registers `found`,
   whose client data is the call, numbered from a global sequence, with
   the finaliser it replaced: the object's earlier calls, if that was
   `found`, or the program's own, called as Boehm would have.  One
   registration, which Boehm makes under its lock, so that no lock of
   ours is held while calling Boehm (see fork.c), and concurrent calls
   on one object chain each other.  `found` moves the calls to `ready`;
   when Boehm's queue of
   finalisable objects is empty, that is at the last object of the
   collection, `ready` runs, highest number first (if that last object
   is not one of ours, the next delivery runs it).  Nodes of `ready` hold
   the object in uncollectable GC memory, which keeps it alive until its
   finalisers have run: they may resurrect it.

   mp_finalise_last and alarms are not Boehm finalisers.  A finalise_last
   call watches its value with a long link, which Boehm clears when it
   reclaims the value for good; an alarm fires at the end of each full
   collection.  Both are noticed at GC_EVENT_RECLAIM_END, in the
   collector, which may not run program code: they are queued in `due`,
   and every thread is sent to its sampling slow path (mp_sample_prompt),
   where the first one delivers them (mp_finalise_deliver), as tracked.c
   does for the tracker's callbacks.  finalise_last calls due together run
   in the reverse order of their registration.

   Locking.  `lock` guards everything here; it is never held while
   calling Boehm or the program, so that the collector may take it at
   RECLAIM_END (see tracked.c).  */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "boehm.h"
#include "eventlog.h"
#include "finalise.h"
#include "fork.h"

#define GC_THREADS
#include <gc.h>

/* An mp_finalise call, before its object is found unreachable, and the
   finaliser it replaced (`found` with an earlier call, the program's,
   or none).  In GC memory: Boehm keeps a finaliser's client data, and
   what it points to, alive until the finaliser runs, which keeps the
   calls' DATA alive too; none of it points to the object.  */
struct call
{
  void (*fn) (void *obj, void *data);
  void *data;
  uint64_t seq;
  GC_finalization_proc next_fn;
  void *next_cd;
};

/* A call whose object was found unreachable: in uncollectable memory,
   so that OBJ stays alive for it.  */
struct ready
{
  struct ready *next;
  void *obj;
  void (*fn) (void *obj, void *data);
  void *data;
  uint64_t seq;
};

/* A finalise_last call, watching OBJ through LINK, or an alarm's call
   (ALARM set), due or not.  A finalise_last watch is uncollectable GC
   memory, which keeps its DATA alive; an alarm's call is made by the
   collector, which cannot allocate GC memory, so it is malloc'd, and its
   alarm keeps DATA alive.  */
struct watch
{
  struct watch *next;
  GC_hidden_pointer link;       /* cleared by Boehm when OBJ is reclaimed */
  void (*fn) (void *data);
  void *data;
  uint64_t seq;
  struct mp_alarm *alarm;
};

/* Uncollectable GC memory, for DATA.  */
struct mp_alarm
{
  struct mp_alarm *next;        /* the list of live alarms */
  void (*fn) (void *data);
  void *data;
  int deleted;
  unsigned pending;             /* due calls not yet delivered */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t sequence;       /* numbers the calls */
static struct ready *ready;     /* sorted, highest seq first */
static unsigned runner;         /* the run of `ready` under way; 0: none */
static unsigned runs;           /* numbers the runs */
static struct watch *watching;  /* finalise_last calls not yet due */
static struct watch *due;       /* sorted, highest seq first */
static struct mp_alarm *alarms;
static atomic_int anything_due;
static atomic_int delivering;

/* ---- mp_finalise ------------------------------------------------------ */

/* Nonzero while this thread runs `found`.  Boehm may run the next
   object's finaliser from inside an allocation of ours there, or of the
   program's finaliser: that one must not run `ready` before the outer
   one has put its calls in it, and called the program's finaliser.  */
static __thread int in_found;

/* Put LIST in `ready`.  LIST is an object's calls, mostly in `ready`'s
   order, so that one pass does: concurrent mp_finalise calls on the
   object may have registered out of order.  */
static void
merge_ready (struct ready *list)
{
  mp_collector_lock (&lock);
  struct ready **p = &ready;
  uint64_t last = UINT64_MAX;
  while (list)
    {
      struct ready *r = list;
      list = r->next;
      if (r->seq > last)
        p = &ready;
      while (*p && (*p)->seq > r->seq)
        p = &(*p)->next;
      r->next = *p;
      *p = r;
      p = &r->next;
      last = r->seq;
    }
  atomic_store (&anything_due, 1);
  mp_collector_unlock (&lock);
}

/* Run `ready`, one call at a time, unless a run is under way.  */
static void
run_ready (void)
{
  mp_collector_lock (&lock);
  if (runner)
    {
      mp_collector_unlock (&lock);
      return;
    }
  unsigned me = ++runs;
  if (me == 0)
    me = ++runs;                /* 0 means no run */
  runner = me;
  int called = ready != NULL;
  int ev = called ? mp_ev_begin (MP_EV_FINALISE) : 0;
  if (called)
    mp_gc_message (MP_VERBOSE_FINALISE, "calling finalisation functions");
  while (ready && runner == me)
    {
      struct ready r = *ready;
      struct ready *node = ready;
      ready = r.next;
      mp_collector_unlock (&lock);
      GC_free (node);           /* R.obj is on our stack meanwhile */
      r.fn (r.obj, r.data);
      mp_collector_lock (&lock);
    }
  if (runner == me)
    runner = 0;                 /* else a release handed the rest on */
  mp_collector_unlock (&lock);
  if (called)
    mp_gc_message (MP_VERBOSE_FINALISE, "done calling finalisation functions");
  mp_ev_end (MP_EV_FINALISE, ev);
}

/* What Boehm leaves as the replaced finaliser when it has no memory to
   register one; never called.  */
static void
unset (void *obj, void *cd)
{
  (void) obj;
  (void) cd;
}

/* Boehm's finaliser for every object with mp_finalise calls: CD is the
   last call.  */
static void
found (void *obj, void *cd)
{
  in_found++;
  struct ready *list = NULL, **tail = &list;
  const struct call *c = cd;
  for (;; c = c->next_cd)
    {
      struct ready *r = GC_malloc_uncollectable (sizeof *r);
      if (r == NULL)
        mp_warn ("out of memory: a finaliser is lost");
      else
        {
          *r = (struct ready) { NULL, obj, c->fn, c->data, c->seq };
          *tail = r;
          tail = &r->next;
        }
      if (c->next_fn != found)
        break;
    }
  merge_ready (list);
  if (c->next_fn)
    c->next_fn (obj, c->next_cd);
  /* The last object of this collection runs them all; if the last one
     is not ours, the next delivery does.  */
  if (--in_found == 0 && GC_should_invoke_finalizers () == 0)
    run_ready ();
  else
    mp_sample_prompt ();
}

/* Whether WHAT may register HAS_FN's function on OBJ, the start of a GC
   block; if not, say why.  */
static int
acceptable (int has_fn, void *obj, const char *what)
{
  if (!has_fn)
    mp_warn ("%s with no function: ignored", what);
  else if (obj == NULL || GC_base (obj) != obj)
    mp_warn ("%s of %p, which is not the start of a GC block: ignored",
             what, obj);
  else
    return 1;
  errno = EINVAL;
  return 0;
}

MP_API void
mp_finalise (void (*fn) (void *obj, void *data), void *obj, void *data)
{
  mp_gc_self ();                /* the runtime and Boehm are started */
  if (!acceptable (fn != NULL, obj, "mp_finalise"))
    return;
  struct call *c = GC_MALLOC (sizeof *c);
  if (c == NULL)
    {
      mp_warn ("out of memory: mp_finalise ignored");
      return;
    }
  mp_collector_lock (&lock);
  *c = (struct call) { fn, data, ++sequence, unset, NULL };
  mp_collector_unlock (&lock);
  GC_register_finalizer (obj, found, c, &c->next_fn, &c->next_cd);
  if (c->next_fn == unset)
    mp_warn ("Boehm could not register a finaliser: mp_finalise ignored");
}

MP_API void
mp_finalise_release (void)
{
  mp_collector_lock (&lock);
  int was = runner != 0;
  runner = 0;
  mp_collector_unlock (&lock);
  if (was)
    run_ready ();
}

/* ---- finalise_last and alarms ------------------------------------------ */

static void
insert_due (struct watch *w)
{
  struct watch **p = &due;
  while (*p && (*p)->seq > w->seq)
    p = &(*p)->next;
  w->next = *p;
  *p = w;
  atomic_store (&anything_due, 1);
}

MP_API void
mp_finalise_last (void (*fn) (void *data), void *obj, void *data)
{
  mp_gc_self ();
  if (!acceptable (fn != NULL, obj, "mp_finalise_last"))
    return;
  struct watch *w = GC_malloc_uncollectable (sizeof *w);
  if (w == NULL)
    {
      mp_warn ("out of memory: mp_finalise_last ignored");
      return;
    }
  memset (w, 0, sizeof *w);
  w->fn = fn;
  w->data = data;
  w->link = GC_HIDE_POINTER (obj);
  if (GC_register_long_link ((void **) &w->link, obj) != GC_SUCCESS)
    {
      GC_free (w);
      mp_warn ("cannot watch %p: mp_finalise_last ignored", obj);
      return;
    }
  mp_collector_lock (&lock);
  w->seq = ++sequence;
  w->next = watching;
  watching = w;
  mp_collector_unlock (&lock);
}

MP_API struct mp_alarm *
mp_create_alarm (void (*fn) (void *data), void *data)
{
  mp_gc_self ();
  if (fn == NULL)
    {
      errno = EINVAL;
      return NULL;
    }
  struct mp_alarm *a = GC_malloc_uncollectable (sizeof *a);
  if (a == NULL)
    {
      errno = ENOMEM;
      return NULL;
    }
  memset (a, 0, sizeof *a);
  a->fn = fn;
  a->data = data;
  mp_collector_lock (&lock);
  a->next = alarms;
  alarms = a;
  mp_collector_unlock (&lock);
  return a;
}

MP_API void
mp_delete_alarm (struct mp_alarm *a)
{
  if (a == NULL)
    return;
  int gone = 0;
  mp_collector_lock (&lock);
  for (struct mp_alarm **p = &alarms; *p; p = &(*p)->next)
    if (*p == a)
      {
        *p = a->next;
        a->deleted = 1;
        gone = a->pending == 0;
        break;
      }
  mp_collector_unlock (&lock);
  if (gone)
    GC_free (a);                /* else the last due call frees it */
}

/* GC_EVENT_RECLAIM_END, from the collector; FULL for a full collection.  */
void
mp_finalise_after_reclaim (int full)
{
  mp_collector_lock (&lock);
  for (struct watch **p = &watching; *p;)
    {
      struct watch *w = *p;
      if (w->link != 0)
        {
          p = &w->next;
          continue;
        }
      *p = w->next;             /* reclaimed: Boehm dropped the link */
      insert_due (w);
    }
  for (struct mp_alarm *a = full ? alarms : NULL; a; a = a->next)
    {
      struct watch *w = calloc (1, sizeof *w);
      if (w == NULL)
        continue;               /* this one call is lost; the next comes */
      *w = (struct watch) { NULL, 0, a->fn, a->data, ++sequence, a };
      a->pending++;
      insert_due (w);
    }
  int prompt = atomic_load (&anything_due);
  mp_collector_unlock (&lock);
  if (prompt)
    mp_sample_prompt ();
}

/* Run the mp_finalise calls left in `ready`, and the due finalise_last
   calls and alarms, one thread at a time.  */
void
mp_finalise_deliver (void)
{
  if (!atomic_load (&anything_due) || atomic_exchange (&delivering, 1))
    return;
  if (in_found == 0 && GC_should_invoke_finalizers () == 0)
    run_ready ();               /* once Boehm has found them all */
  int called = 0, ev = 0;
  for (;;)
    {
      mp_collector_lock (&lock);
      struct watch *w = due;
      if (w)
        due = w->next;
      else if (ready == NULL)
        atomic_store (&anything_due, 0);
      int call = w && !(w->alarm && w->alarm->deleted);
      struct mp_alarm *dead_alarm = NULL;
      if (w && w->alarm && --w->alarm->pending == 0 && w->alarm->deleted)
        dead_alarm = w->alarm;
      mp_collector_unlock (&lock);
      if (w == NULL)
        break;
      if (call && !called++)
        {
          ev = mp_ev_begin (MP_EV_FINALISE);
          mp_gc_message (MP_VERBOSE_FINALISE, "calling finalisation functions");
        }
      if (call)
        w->fn (w->data);
      if (dead_alarm)
        GC_free (dead_alarm);
      if (w->alarm)
        free (w);
      else
        GC_free (w);
    }
  if (called)
    mp_gc_message (MP_VERBOSE_FINALISE, "done calling finalisation functions");
  mp_ev_end (MP_EV_FINALISE, ev);
  atomic_store (&delivering, 0);
}

/* See fork.c.  A run or a delivery that another thread had under way
   ends in the child as if released: the child's first chance takes over
   what is left.  */
void
mp_finalise_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_CHILD)
    {
      runner = 0;
      atomic_store (&delivering, 0);
    }
  mp_fork_mutex (&lock, step);
}
