/* finalise.c -- OCaml's Gc.finalise, finalise_last, finalise_release and
   alarms, on Boehm's finalisation, beside the program's own finalisers.

   Design.  OCaml's finalisers have no order: a value is finalised once
   no root reaches it, whatever other finalisable values reach it, so a
   cycle is finalised, and what the value reaches stays valid while its
   finalisers run.  That is Boehm's GC_register_finalizer_no_order, with
   Boehm's java finalisation (on unless the program turns it off) marking
   what such an object reaches.  But Boehm gives an object one finaliser,
   of one kind, and the program may register its own, ordered or not, on
   an object that mp_finalise watches: it must keep its kind, and run as
   it would without memprof.

   So an object's registration, ours and the program's alike, is Boehm's
   `found` with a record (struct fin) for client data: the program's
   finaliser, the kind the program asked for, and our calls.  It is made
   with the program's kind if the program has a finaliser there, else
   no_order.  The plugin rewrites the program's GC_register_finalizer,
   _ignore_self, _no_order and _unreachable into the functions below,
   which replace the program's part of the record, keep our calls, and
   give back the program's previous finaliser.  A finaliser that code
   built without the plugin registered is taken as GC_register_finalizer's
   kind.  `found` calls the program's finaliser as Boehm would have, then
   queues our calls.  Each change takes the registration out of Boehm
   and puts the new one in, one change at a time (`registering`), so
   that concurrent ones do not lose each other's calls; no lock is held
   while calling Boehm (see fork.c).

   An ordered program finaliser holds back the calls of its object when
   a cycle or another ordered finalisable object reaches it, and the
   calls of the no_order objects it reaches: for ever, in a cycle.  So
   every object with calls is `watched`; at the end of each collection's
   marking (GC_EVENT_MARK_END, before Boehm looks at its finalisers) the
   ones no root reached become suspects.  After the collection, a suspect
   whose registration Boehm still holds, the one it had then, was held
   back: its calls are taken out and become ready, and the program's
   finaliser goes back as it was (resolve).  A suspect no longer
   registered was queued by Boehm, and `found` runs its calls.  Boehm
   marked everything a held-back object reaches, as it keeps it.

   `found` and resolve put the calls in `ready`; when Boehm's queue of
   finalisable objects is empty, that is at the last object of the
   collection, `ready` runs, highest number first: the calls of objects
   found unreachable together run in the reverse order of their
   mp_finalise calls, after the program's finalisers (if the last object
   is not one of ours, the next delivery runs them).  Nodes of `ready`
   hold the object in uncollectable GC memory, which keeps it alive until
   its finalisers have run: they may resurrect it.

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
   RECLAIM_END (see tracked.c).  At MARK_END, with the world stopped and
   maybe a holder among the stopped threads, the collector only tries
   it, and the next collection looks at the suspects if it fails.  */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "boehm.h"
#include "eventlog.h"
#include "finalise.h"
#include "fork.h"
#include "finalise.h"
#include "sample.h"

#include "gcweak.h"

/* The kinds of Boehm's registration, as the program's calls name them.  */
enum kind { ORDERED, IGNORE_SELF, NO_ORDER, UNREACHABLE };

/* An mp_finalise call: GC memory, immutable.  Boehm keeps a finaliser's
   client data alive until the finaliser runs, and what it points to:
   the calls, and their DATA.  */
struct call
{
  void (*fn) (void *obj, void *data);
  void *data;
  uint64_t seq;                 /* numbers the calls, from `sequence` */
  struct call *next;            /* the object's earlier calls */
};

/* An object's registration, `found`'s client data: GC memory, immutable
   once registered.  */
struct fin
{
  GC_finalization_proc prog_fn; /* the program's finaliser, or NULL */
  void *prog_cd;
  enum kind kind;               /* the program's, or NO_ORDER without */
  uint64_t seq;                 /* numbers the registrations */
  struct call *calls;           /* ours, latest first */
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

/* An object with calls registered, in `watched`: malloc'd.  */
struct watched
{
  struct watched *next;         /* bucket chain */
  GC_hidden_pointer obj;        /* hidden: it must not keep OBJ alive */
  uint64_t reg_seq;             /* its registration's seq */
  uint64_t suspect;             /* reg_seq when a collection found no root
                                   reaching OBJ; 0: not suspected */
  int gone;                     /* not a GC block's start any more (a
                                   GC_free): nothing to ask Boehm */
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

static uint64_t sequence;       /* numbers the calls and registrations */
static struct ready *ready;     /* sorted, highest seq first */
static unsigned runner;         /* the run of `ready` under way; 0: none */
static unsigned runs;           /* numbers the runs */
static struct watch *watching;  /* finalise_last calls not yet due */
static struct watch *due;       /* sorted, highest seq first */
static struct mp_alarm *alarms;
static atomic_int anything_due;
static atomic_int delivering;
static int registering;         /* a change of registration under way */
static struct watched **buckets;  /* `watched`, by address */
static size_t n_buckets, n_watched;
static size_t n_suspects;       /* entries of `watched` with suspect set */
static atomic_int resolving;    /* a thread runs resolve */

/* ---- the watched objects (under lock) -------------------------------- */

static struct watched **
bucket (const void *obj)
{
  return &buckets[((uintptr_t) obj >> 4) % n_buckets];
}

/* The link to OBJ's entry, or the null link at the end of its chain.  */
static struct watched **
entry (const void *obj)
{
  struct watched **p = bucket (obj);
  while (*p && (void *) GC_REVEAL_POINTER ((*p)->obj) != obj)
    p = &(*p)->next;
  return p;
}

static void
unlink_entry (struct watched **p)
{
  struct watched *w = *p;
  *p = w->next;
  n_watched--;
  n_suspects -= w->suspect != 0;
  free (w);
}

/* Double the buckets when they are full; without memory the chains
   grow instead.  */
static void
grow (void)
{
  size_t size = n_buckets ? 2 * n_buckets : 256;
  struct watched **b = calloc (size, sizeof *b);
  if (b == NULL)
    return;
  struct watched **old = buckets;
  size_t n = n_buckets;
  buckets = b;
  n_buckets = size;
  for (size_t i = 0; i < n; i++)
    for (struct watched *w = old[i], *next; w; w = next)
      {
        next = w->next;
        struct watched **head = bucket ((void *) GC_REVEAL_POINTER (w->obj));
        w->next = *head;
        *head = w;
      }
  free (old);
}

/* OBJ's calls are now those of registration SEQ; 0: it has none.  */
static void
watch (void *obj, uint64_t seq)
{
  if (n_watched >= n_buckets)
    grow ();
  if (n_buckets == 0)
    return;
  struct watched **p = entry (obj);
  if (*p && seq == 0)
    unlink_entry (p);
  else if (*p)
    (*p)->reg_seq = seq;
  else if (seq && (*p = calloc (1, sizeof **p)) != NULL)
    {
      (*p)->obj = GC_HIDE_POINTER (obj);
      (*p)->reg_seq = seq;
      n_watched++;
    }
  else if (seq)
    mp_warn ("out of memory: an ordered finaliser may hold back "
             "mp_finalise calls for ever");
}

/* Registration SEQ of OBJ was queued by Boehm: its calls run.  */
static void
unwatch (void *obj, uint64_t seq)
{
  if (n_buckets == 0)
    return;
  struct watched **p = entry (obj);
  if (*p && (*p)->reg_seq == seq)
    unlink_entry (p);
}

/* A suspect taken off `watched`, alive: OBJ is revealed only while its
   entry is there, which means its registration is in Boehm or its
   `found` has yet to run.  */
struct suspect
{
  void *obj;
  uint64_t seq;
};

static size_t
take_suspects (struct suspect *out, size_t max)
{
  size_t n = 0;
  for (size_t i = 0; i < n_buckets && n < max && n_suspects; i++)
    for (struct watched **p = &buckets[i]; *p && n < max;)
      {
        struct watched *w = *p;
        if (!w->suspect)
          {
            p = &w->next;
            continue;
          }
        if (!w->gone)
          out[n++] = (struct suspect) { (void *) GC_REVEAL_POINTER (w->obj),
                                        w->suspect };
        unlink_entry (p);
      }
  return n;
}

/* GC_EVENT_MARK_END: the marks say which objects a root reaches.  */
void
mp_finalise_after_marking (void)
{
  if (pthread_mutex_trylock (&lock) != 0)
    return;                     /* a stopped thread holds it */
  for (size_t i = 0; i < n_buckets && n_suspects < n_watched; i++)
    for (struct watched *w = buckets[i]; w; w = w->next)
      {
        void *p = (void *) GC_REVEAL_POINTER (w->obj);
        if (w->suspect)
          continue;
        w->gone = GC_base (p) != p;
        if (w->gone || !GC_is_marked (p))
          {
            w->suspect = w->reg_seq;
            n_suspects++;
          }
      }
  if (n_suspects)
    atomic_store (&anything_due, 1);
  pthread_mutex_unlock (&lock);
}

/* ---- registrations ------------------------------------------------------ */

/* What Boehm leaves as the replaced finaliser when it has no memory to
   register one; never called.  */
static void
unset (void *obj, void *cd)
{
  (void) obj;
  (void) cd;
}

/* Boehm's registration of each kind.  */
static void (*const register_kind[]) (void *obj, GC_finalization_proc fn,
                                      void *cd, GC_finalization_proc *ofn,
                                      void **ocd) = {
  [ORDERED] = GC_register_finalizer,
  [IGNORE_SELF] = GC_register_finalizer_ignore_self,
  [NO_ORDER] = GC_register_finalizer_no_order,
  [UNREACHABLE] = GC_register_finalizer_unreachable,
};

static void found (void *obj, void *cd);

/* OBJ's registration, taken out of Boehm, into *WAS.  */
static void
take_out (void *obj, struct fin *was)
{
  GC_finalization_proc fn = NULL;
  void *cd = NULL;
  GC_register_finalizer_no_order (obj, NULL, NULL, &fn, &cd);
  if (fn == found)
    *was = *(const struct fin *) cd;
  else                          /* none, or one code built without the
                                   plugin registered: of the first kind */
    *was = (struct fin) { fn, cd, fn ? ORDERED : NO_ORDER, 0, NULL };
}

/* Register F, numbered now, on OBJ, and watch OBJ if F has calls.  */
static void
put_in (void *obj, struct fin *f)
{
  if (f->prog_fn == NULL)
    f->kind = NO_ORDER;
  mp_collector_lock (&lock);
  f->seq = ++sequence;
  mp_collector_unlock (&lock);
  if (f->prog_fn || f->calls)
    {
      GC_finalization_proc was = unset;
      void *cd;
      register_kind[f->kind] (obj, found, f, &was, &cd);
      if (was == unset)
        {
          mp_warn ("Boehm could not register a finaliser: it is lost");
          f->calls = NULL;
        }
    }
  mp_collector_lock (&lock);
  watch (obj, f->calls ? f->seq : 0);
  mp_collector_unlock (&lock);
}

/* Change OBJ's registration: take it out of Boehm, have EDIT make F
   (GC memory) of it with ARG, and put F in.  One change at a time, so
   that no change is lost; no lock is held meanwhile.  */
static void
change (void *obj, struct fin *f,
        void (*edit) (const struct fin *was, struct fin *f, void *arg),
        void *arg)
{
  for (;;)
    {
      mp_collector_lock (&lock);
      int mine = !registering;
      registering = 1;
      mp_collector_unlock (&lock);
      if (mine)
        break;
      sched_yield ();
    }
  struct fin was;
  take_out (obj, &was);
  edit (&was, f, arg);
  put_in (obj, f);
  mp_collector_lock (&lock);
  registering = 0;
  mp_collector_unlock (&lock);
}

/* ---- running the calls ---------------------------------------------------- */

/* Nonzero while this thread runs `found`.  Boehm may run the next
   object's finaliser from inside an allocation of ours there, or of the
   program's finaliser: that one must not run `ready` before the outer
   one has put its calls in it, and called the program's finaliser.  */
static __thread int in_found;

/* Put LIST in `ready`.  LIST is an object's calls, mostly in `ready`'s
   order, so that one pass does.  */
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

/* CALLS, OBJ's, are due: into `ready`, each node keeping OBJ alive.  */
static void
queue_calls (void *obj, const struct call *calls)
{
  struct ready *list = NULL, **tail = &list;
  for (const struct call *c = calls; c; c = c->next)
    {
      struct ready *r = GC_malloc_uncollectable (sizeof *r);
      if (r == NULL)
        {
          mp_warn ("out of memory: a finaliser is lost");
          continue;
        }
      *r = (struct ready) { NULL, obj, c->fn, c->data, c->seq };
      *tail = r;
      tail = &r->next;
    }
  merge_ready (list);
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

/* A registration whose calls an ordered finaliser held back: SEQ, the
   one no root reached; the calls it had, taken out.  */
struct held
{
  uint64_t seq;
  const struct call *calls;
};

static void
hold_back (const struct fin *was, struct fin *f, void *arg)
{
  struct held *h = arg;
  *f = *was;
  if (was->seq == h->seq)
    {
      h->calls = was->calls;
      f->calls = NULL;
    }
}

/* Move the calls of the suspects that Boehm held back to `ready`; the
   suspects it queued are left to `found`.  One thread at a time.  */
static void
resolve (void)
{
  if (atomic_exchange (&resolving, 1))
    return;
  for (;;)
    {
      struct suspect s[32];
      mp_collector_lock (&lock);
      size_t n = take_suspects (s, sizeof s / sizeof s[0]);
      mp_collector_unlock (&lock);
      if (n == 0)
        break;
      for (size_t i = 0; i < n; i++)
        {
          struct fin *f = GC_MALLOC (sizeof *f);
          struct held h = { s[i].seq, NULL };
          if (f == NULL)
            {
              mp_warn ("out of memory: an ordered finaliser may hold back "
                       "mp_finalise calls for ever");
              continue;
            }
          change (s[i].obj, f, hold_back, &h);
          queue_calls (s[i].obj, h.calls);
        }
    }
  atomic_store (&resolving, 0);
}

/* Boehm's finaliser for every registration of ours: CD is its record.  */
static void
found (void *obj, void *cd)
{
  const struct fin *f = cd;
  in_found++;
  if (f->calls)
    {
      mp_collector_lock (&lock);
      unwatch (obj, f->seq);
      mp_collector_unlock (&lock);
      queue_calls (obj, f->calls);
    }
  if (f->prog_fn)
    f->prog_fn (obj, f->prog_cd);
  /* The last object of this collection runs them all; if the last one
     is not ours, the next delivery does.  */
  if (--in_found == 0 && GC_should_invoke_finalizers () == 0)
    {
      resolve ();
      run_ready ();
    }
  else
    mp_sample_prompt ();
}

/* ---- mp_finalise and the program's finalisers ----------------------------- */

/* Whether WHAT may register HAS_FN's function on OBJ, the start of a GC
   block; if not, say why.  */
static int
acceptable (int has_fn, void *obj, const char *what)
{
  if (!has_fn)
    mp_warn ("%s with no function: ignored", what);
  else if (!mp_gc_linked ())
    mp_warn ("%s of %p: no GC heap (libgc was not in the process when it "
             "started): ignored", what, obj);
  else if (obj == NULL || GC_base (obj) != obj)
    mp_warn ("%s of %p, which is not the start of a GC block: ignored",
             what, obj);
  else
    return 1;
  errno = EINVAL;
  return 0;
}

/* ARG, a call, joins the object's.  */
static void
add_call (const struct fin *was, struct fin *f, void *arg)
{
  struct call *c = arg;
  *f = *was;
  mp_collector_lock (&lock);
  c->seq = ++sequence;
  mp_collector_unlock (&lock);
  c->next = was->calls;
  f->calls = c;
}

MP_API void
mp_finalise (void (*fn) (void *obj, void *data), void *obj, void *data)
{
  static atomic_int warned;
  if (mp_gc_linked ())
    mp_gc_self ();              /* the runtime and Boehm are started */
  if (!acceptable (fn != NULL, obj, "mp_finalise"))
    return;
  if (!GC_get_java_finalization () && !atomic_exchange (&warned, 1))
    mp_warn ("Boehm's java finalisation is off: what a finalised value "
             "reaches may be reclaimed before its finaliser runs");
  struct call *c = GC_MALLOC (sizeof *c);
  struct fin *f = GC_MALLOC (sizeof *f);
  if (c == NULL || f == NULL)
    {
      mp_warn ("out of memory: mp_finalise ignored");
      return;
    }
  *c = (struct call) { fn, data, 0, NULL };
  change (obj, f, add_call, c);
}

/* A program's GC_register_finalizer* call, as Boehm takes it.  */
struct program
{
  GC_finalization_proc fn, *ofn;
  void *cd, **ocd;
  enum kind kind;
};

/* The program's finaliser replaces its previous one, which it gets
   back; the calls stay.  */
static void
set_program (const struct fin *was, struct fin *f, void *arg)
{
  struct program *p = arg;
  if (p->ofn)
    *p->ofn = was->prog_fn;
  if (p->ocd)
    *p->ocd = was->prog_cd;
  *f = *was;
  f->prog_fn = p->fn;
  f->prog_cd = p->fn ? p->cd : NULL;
  f->kind = p->kind;
}

static void
program_register (void *obj, GC_finalization_proc fn, void *cd,
                  GC_finalization_proc *ofn, void **ocd, enum kind kind)
{
  mp_gc_self ();
  struct fin *f;
  if (obj == NULL || GC_base (obj) != obj
      || (f = GC_MALLOC (sizeof *f)) == NULL)
    {
      register_kind[kind] (obj, fn, cd, ofn, ocd);      /* Boehm's answer */
      return;
    }
  struct program p = { fn, ofn, cd, ocd, kind };
  change (obj, f, set_program, &p);
}

/* The program's calls, rewritten by the plugin (callees.cc).  */
#define PROGRAM_REGISTER(suffix, kind)                                       \
  MP_API void __mp_GC_register_finalizer##suffix (                           \
    void *obj, GC_finalization_proc fn, void *cd,                           \
    GC_finalization_proc *ofn, void **ocd)                                  \
  {                                                                         \
    program_register (obj, fn, cd, ofn, ocd, kind);                         \
  }

PROGRAM_REGISTER (, ORDERED)
PROGRAM_REGISTER (_ignore_self, IGNORE_SELF)
PROGRAM_REGISTER (_no_order, NO_ORDER)
PROGRAM_REGISTER (_unreachable, UNREACHABLE)

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
  if (mp_gc_linked ())
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
  if (fn == NULL)
    {
      errno = EINVAL;
      return NULL;
    }
  if (!mp_gc_linked ())
    {
      mp_warn ("mp_create_alarm: no GC heap (libgc was not in the process "
               "when it started), so no collection to run it: ignored");
      errno = ENOSYS;
      return NULL;
    }
  mp_gc_self ();
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
   calls and alarms: mp_finalise_deliver's delivery.  */
static void
deliver_once (void)
{
  if (in_found == 0)
    {
      resolve ();
      if (GC_should_invoke_finalizers () == 0)
        run_ready ();           /* once Boehm has found them all */
    }
  int called = 0, ev = 0;
  for (;;)
    {
      mp_collector_lock (&lock);
      struct watch *w = due;
      if (w)
        due = w->next;
      else if (ready == NULL && n_suspects == 0)
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
}

/* Whether calls are in `due`.  */
static int
due_left (void)
{
  mp_collector_lock (&lock);
  int left = due != NULL;
  mp_collector_unlock (&lock);
  return left;
}

/* deliver_once, one thread at a time.  A thread that finds another
   delivering leaves the calls to it (memprof.h, the collections), so
   that one looks at `due` again once it lets the others in: a call
   made due just before would wait for the next delivery otherwise.  */
void
mp_finalise_deliver (void)
{
  while (atomic_load (&anything_due) && !atomic_exchange (&delivering, 1))
    {
      deliver_once ();
      atomic_store (&delivering, 0);
      if (!due_left ())
        return;
    }
}

/* See fork.c.  A run, a delivery, a change of registration or a
   resolve that another thread had under way ends in the child as if
   released: the child's first chance takes over what is left.  */
void
mp_finalise_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_CHILD)
    {
      runner = 0;
      registering = 0;
      atomic_store (&delivering, 0);
      atomic_store (&resolving, 0);
    }
  mp_fork_mutex (&lock, step);
}
