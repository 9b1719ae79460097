/* tracked.c -- the sampled blocks followed after their allocation, for
   the program's tracker and for the report's profile (profile.c), and the
   callbacks postponed for them.

   Design.  A sampled block is followed while the tracker keeps metadata
   for it or the profile counts it; the tracker's callbacks run only for
   the first, and while its session (a mp_memprof_start) lasts.

   A malloc-family block is followed until its free, which finds
   it here by address when the block's tag (libc.c) says it is tracked;
   its dealloc_major runs in the freeing thread.

   A GC block is tracked until Boehm reclaims it.  It gets a long link
   (GC_register_long_link), which Boehm clears only when the block is
   really reclaimed, after any finaliser has run and left it unreachable:
   a block that a finaliser resurrects keeps its link and is not dead.
   At the end of each collection's reclaim phase (GC_EVENT_RECLAIM_END:
   the GC lock held, the world running) every tracked GC block is looked
   at: a cleared link is a death; a young block still linked that was
   allocated before this collection's marking is promoted.  The
   collector's thread may not run program code there, so the entry is
   marked and queued, and every thread is sent to its sampling slow path
   (mp_sample_prompt), where the first one outside a callback delivers the
   queue (mp_tracked_deliver).  GC_free and a GC_realloc that moves the
   block end it through the same queue; the entry is taken off the table
   before Boehm frees the block (mp_tracked_take), so that no other block
   at the same address is ended in its place; the collections that Boehm
   runs meanwhile (a GC_realloc's, which may collect before it moves the
   block, or fail after) do not see it, and it catches up with them when
   it comes back (catch_up).  One thread delivers at a
   time, in queue order, so a block's callbacks keep OCaml's order:
   alloc, promote, dealloc.

   Locking.  mp_profile_lock (profile.c's lock: a sample and a free take
   one lock for the profile and the table) guards the table, the queue
   and the entries' state.  It is never held while calling Boehm (which
   may take the GC lock) or a callback.  The collector takes it at
   RECLAIM_END, holding the GC lock with no thread stopped; since no
   holder of it waits for the GC lock, that cannot deadlock.  An entry
   taken off both the table and the queue belongs to the thread that
   took it.

   Signal handlers.  A handler may free a sampled block while the thread
   it interrupted holds mp_profile_lock, or is about to (mp_busy,
   thread.h): taking the lock again would deadlock the thread.  So the
   free is deferred: a node saying "the entry of this address" goes on
   the thread's `deferred' stack (thread.h), and the thread ends the
   entry when it next releases the lock (mp_profile_release), or when
   it leaves its last busy section (mp_busy_leave), before it runs any
   program code.  The block itself goes back to malloc at once, and its
   address may come back from another thread's malloc, sampled, before
   the node is seen: each entry put in the table gets the next number
   of `n_puts', the node the number of the last entry put before the
   free (the freed block's entry was put before the program could free
   it), and the node ends the newest entry of its address no newer than
   that; a free that is not deferred ends the newest entry of its
   address.  A deferred end runs the tracker's dealloc_major later,
   from the queue.  A forked child ends the nodes of the threads that
   did not follow (mp_tracked_fork).  */

#include <limits.h>
#include <stdlib.h>
#include <pthread.h>
#include "internal.h"
#include "own.h"
#include "generations.h"
#include "eventlog.h"
#include "fork.h"
#include "sample.h"
#include "profile.h"

#include "gcweak.h"

struct mp_tracked
{
  struct mp_tracked *next;           /* bucket chain, while in_table */
  struct mp_tracked *queued;         /* next in the queue, while in_queue */
  void *block;                  /* the block's address: the key */
  GC_hidden_pointer link;       /* GC blocks: Boehm clears it at reclaim */
  void *meta;                   /* what the last callback returned; NULL
                                   once the tracker stopped following */
  struct mp_profile_stack *profile;  /* the report's record, or NULL */
  struct mp_space_amount est;   /* the profile's estimate of the block */
  uint64_t epoch;               /* mp_gc_epoch when the block was made */
  unsigned session;             /* mp_memprof_start call it belongs to */
  uint32_t taken;               /* GC entries off the table for their
                                   caller: `reclaimed' then */
  unsigned char gc, young;      /* a GC block; not yet promoted */
  unsigned char age;            /* collections survived, up to 255 */
  unsigned char in_table, in_queue;
  unsigned char promote_due, dead;  /* callbacks to deliver */
  unsigned char deferred;       /* 0: an entry; DEFER_END or DEFER_KEEP:
                                   a node of a thread's `deferred' stack */
  uint64_t seq;                 /* entries: its number of n_puts, set by
                                   table_put; nodes: n_puts at the free */
};

/* What a node of a thread's deferred stack (thread.h) asks for: the end
   of the entry of its block, or nothing (mp_tracked_keep of a node).  */
enum { DEFER_END = 1, DEFER_KEEP };

static struct mp_tracked **buckets;  /* guarded by mp_profile_lock */
static size_t n_buckets, n_entries;
static struct mp_tracked *queue_head, **queue_tail = &queue_head;
static _Atomic size_t n_gc;     /* GC entries in the table: written under
                                   mp_profile_lock, read without it by
                                   the collector */
/* A counting filter of the table's GC entries: by a hash of its block
   (filter_of), how many of them hash there, up to FILTER_STUCK, where a
   counter stays for good.  Written with the table, under
   mp_profile_lock; read without it by mp_tracked_take, for a GC_free or
   GC_realloc of a block the program holds: the entry of a sampled block
   is put before the program has the block, so a counter of 0 says that
   the block has none, and the lock is not taken (w3m's GC_reallocs,
   with GC blocks sampled, took it 97 thousand times).  */
#define FILTER_BITS 12
#define FILTER_STUCK UCHAR_MAX
static _Atomic unsigned char gc_filter[1 << FILTER_BITS];
static atomic_int queue_nonempty;   /* written under mp_profile_lock */
static atomic_int delivering;   /* 1 while a thread delivers the queue */
static _Atomic uint64_t n_puts; /* entries ever put in the table: written
                                   under mp_profile_lock, read without
                                   it by a signal handler's free */
static atomic_long lost_frees;  /* deferred frees lost for want of a node */
/* The mp_gc_epoch that the last reclaim read (mp_tracked_after_reclaim),
   which looks at the entries in the table only: one taken off for a
   while, as a GC_realloc's is while Boehm runs it, which may collect,
   catches up when it comes back (catch_up).  Written by the collector,
   under mp_profile_lock when the table has GC entries.  */
static _Atomic uint64_t reclaimed;

__thread struct mp_busy mp_busy __attribute__ ((tls_model ("initial-exec")));

/* ---- the table and the queue (under mp_profile_lock) ---------------- */

static size_t
bucket_of (const void *block, size_t n)
{
  return ((uintptr_t) block >> 4) % n;
}

static _Atomic unsigned char *
filter_of (const void *block)
{
  return &gc_filter[((uintptr_t) block >> 4) * UINT64_C (0x9e3779b97f4a7c15)
                    >> (64 - FILTER_BITS)];
}

/* Count a GC entry of BLOCK in or out of the filter: BY is 1 or -1.  */
static void
filter_count (const void *block, int by)
{
  _Atomic unsigned char *c = filter_of (block);
  unsigned char v = atomic_load_explicit (c, memory_order_relaxed);
  if (v != FILTER_STUCK)
    atomic_store_explicit (c, (unsigned char) (v + by), memory_order_relaxed);
}

static void
table_put (struct mp_tracked *e)
{
  if (n_entries >= n_buckets)
    {
      size_t size = n_buckets ? 2 * n_buckets : 1024;
      struct mp_tracked **b = mp_own_alloc (size * sizeof *b);
      if (b != NULL)
        {
          for (size_t i = 0; i < n_buckets; i++)
            {
              /* Moved oldest first: the chains stay newest first.  */
              struct mp_tracked *old = NULL;
              for (struct mp_tracked *x = buckets[i], *next; x; x = next)
                {
                  next = x->next;
                  x->next = old;
                  old = x;
                }
              for (struct mp_tracked *x = old, *next; x; x = next)
                {
                  next = x->next;
                  x->next = b[bucket_of (x->block, size)];
                  b[bucket_of (x->block, size)] = x;
                }
            }
          mp_own_free (buckets, n_buckets * sizeof *buckets);
          buckets = b;
          n_buckets = size;
        }
      /* else the table keeps its size, and its chains grow */
    }
  struct mp_tracked **head = &buckets[bucket_of (e->block, n_buckets)];
  e->seq = atomic_load_explicit (&n_puts, memory_order_relaxed) + 1;
  atomic_store_explicit (&n_puts, e->seq, memory_order_release);
  e->next = *head;
  *head = e;
  e->in_table = 1;
  n_entries++;
  if (e->gc)
    {
      atomic_fetch_add (&n_gc, 1);
      filter_count (e->block, 1);
    }
}

static void
table_unlink (struct mp_tracked **p)
{
  struct mp_tracked *e = *p;
  *p = e->next;
  e->in_table = 0;
  n_entries--;
  if (e->gc)
    {
      atomic_fetch_sub (&n_gc, 1);
      filter_count (e->block, -1);
    }
}

/* Take the newest entry of BLOCK (of the GC or malloc kind GC) put no
   later than number UPTO off the table; NULL if there is none.  An
   address has two entries only while a deferred free of the older one
   waits (see the design).  Each chain is newest first: table_put puts
   in front, and keeps the order when it moves them.  */
static struct mp_tracked *
table_take (const void *block, int gc, uint64_t upto)
{
  if (n_buckets == 0)
    return NULL;
  for (struct mp_tracked **p = &buckets[bucket_of (block, n_buckets)]; *p;
       p = &(*p)->next)
    if ((*p)->block == block && (*p)->gc == gc && (*p)->seq <= upto)
      {
        struct mp_tracked *e = *p;
        table_unlink (p);
        return e;
      }
  return NULL;
}

/* Take E itself off the table; 0 if it is not there (its block was
   freed meanwhile, and another block may sit at its address).  */
static int
table_remove (struct mp_tracked *e)
{
  if (!e->in_table)
    return 0;
  for (struct mp_tracked **p = &buckets[bucket_of (e->block, n_buckets)]; *p;
       p = &(*p)->next)
    if (*p == e)
      {
        table_unlink (p);
        return 1;
      }
  return 0;
}

static void
enqueue (struct mp_tracked *e)
{
  if (e->in_queue)
    return;
  e->in_queue = 1;
  e->queued = NULL;
  *queue_tail = e;
  queue_tail = &e->queued;
  atomic_store (&queue_nonempty, 1);
}

static struct mp_tracked *
dequeue (void)
{
  struct mp_tracked *e = queue_head;
  if (e == NULL)
    return NULL;
  queue_head = e->queued;
  if (queue_head == NULL)
    {
      queue_tail = &queue_head;
      atomic_store (&queue_nonempty, 0);
    }
  e->in_queue = 0;
  return e;
}

/* ---- the entries' memory ------------------------------------------------ */

/* Entries come from slabs kept for the whole run, not from one malloc
   each: a sample then costs no malloc and no free, and the entries, which
   live as long as the program's sampled blocks, stay out of the chunks
   among which the program's own blocks come and go (measured on
   bt-malloc at 1e-2, a malloc'ed entry each made the program's malloc
   slower: more of its requests past the fast bins, more
   consolidations).  A slab has twice the entries of the one before,
   from SLAB_FIRST to SLAB_MAX, so that a small own_limit still holds
   a few entries.  */
#define SLAB_FIRST 16
#define SLAB_MAX 4096

/* The spare entries, chained by `next', and the size of the next slab:
   guarded by mp_profile_lock.  A spare entry is in neither the table nor the
   queue.  */
static struct mp_tracked *spare;
static size_t slab_entries = SLAB_FIRST;

/* An entry, or NULL (sampling stops: own.c).  */
static struct mp_tracked *
entry_new (void)
{
  mp_profile_acquire ();
  struct mp_tracked *e = spare;
  size_t n = slab_entries;
  if (e != NULL)
    spare = e->next;
  mp_profile_release ();
  if (e != NULL)
    return e;
  struct mp_tracked *slab = mp_own_alloc (n * sizeof *slab);
  if (slab == NULL)
    return NULL;
  mp_profile_acquire ();
  for (size_t i = 1; i < n; i++)
    {
      slab[i].next = spare;
      spare = &slab[i];
    }
  if (slab_entries == n && n < SLAB_MAX)
    slab_entries = 2 * n;
  mp_profile_release ();
  return slab;
}

/* E, off the table and the queue, is spare.  */
static void
entry_free (struct mp_tracked *e)
{
  mp_profile_acquire ();
  e->next = spare;
  spare = e;
  mp_profile_release ();
}

/* ---- making entries ----------------------------------------------------- */

/* Under mp_profile_lock: E's GC block survived a collection.  It is copied at its
   age (memprof.h), and a young block is promoted.  */
static void
survived (struct mp_tracked *e)
{
  if (e->profile)
    mp_profile_survived (e->profile, e->age, &e->est);
  if (e->age < UCHAR_MAX)
    e->age++;
  if (e->young)
    {
      e->young = 0;
      e->promote_due = 1;
      enqueue (e);
    }
}

/* Under mp_profile_lock: E, a GC entry that mp_tracked_take gave its
   caller, was not in the table at the reclaims since: its block lived
   through those of collections that came after it was made (the caller
   held it), as mp_tracked_after_reclaim would have found.  Return 1 if
   that promoted it: a callback is due.  */
static int
catch_up (struct mp_tracked *e)
{
  int young = e->young;
  uint32_t now = (uint32_t) atomic_load (&reclaimed);
  for (uint32_t v = e->taken; v != now;)
    if (++v != (uint32_t) e->epoch)
      survived (e);
  return young && !e->young;
}

/* E, an entry of no block, for the block S describes.  */
static void
entry_fill (struct mp_tracked *e, const struct mp_sampled *s)
{
  *e = (struct mp_tracked) { .block = s->block, .meta = s->meta,
                        .est = s->est,
                        .epoch = s->epoch, .session = s->session,
                        .gc = (unsigned char) s->gc,
                        .young = (unsigned char) s->young };
  e->link = GC_HIDE_POINTER (s->block);
}

/* A GC block's entry for S, its link registered; NULL if there is
   none.  Before mp_profile_lock: Boehm may take its own lock.  */
static struct mp_tracked *
gc_entry (const struct mp_sampled *s)
{
  struct mp_tracked *e = entry_new ();
  if (e == NULL)
    return NULL;                /* sampling stops (own.c) */
  entry_fill (e, s);
  if (GC_register_long_link ((void **) &e->link, s->block) != GC_SUCCESS)
    {
      mp_warn ("cannot follow a sampled GC block");
      entry_free (e);
      return NULL;
    }
  return e;
}

/* Count the block S describes in the profile and follow it; return 1
   if it is followed.  One lock for both, and a malloc block's entry
   from the spares under it.  A block without an entry (own.c's memory
   ran out) is not counted either: the profile would hold it live for
   good, its death unseen.  */
int
mp_tracked_add (const struct mp_sampled *s)
{
  if (s->meta == NULL && s->ras == NULL)
    return 0;
  struct mp_tracked *e = s->gc ? gc_entry (s) : NULL;
  if (s->gc && e == NULL)
    return 0;
  mp_profile_acquire ();
  if (!s->gc && (e = spare) != NULL)
    spare = e->next;
  else if (!s->gc)
    {
      mp_profile_release ();
      if ((e = entry_new ()) == NULL)
        return 0;               /* sampling stops (own.c) */
      mp_profile_acquire ();
    }
  if (!s->gc)
    entry_fill (e, s);
  e->profile = s->ras ? mp_profile_alloc (s->ras, s->n_ras, s) : NULL;
  if (s->session != mp_sample_session ())
    e->meta = NULL;             /* the tracker stopped meanwhile */
  int kept = e->meta != NULL || e->profile != NULL;
  if (kept)
    {
      table_put (e);
      /* A collection ran since the block was made, which it survived:
         the allocating thread held it.  */
      if (e->gc && e->epoch != atomic_load_explicit (&mp_gc_epoch,
                                                     memory_order_acquire))
        survived (e);
    }
  int prompt = atomic_load (&queue_nonempty);
  mp_profile_release ();
  if (!kept)
    {
      if (s->gc)
        GC_unregister_long_link ((void **) &e->link);
      entry_free (e);
    }
  else if (prompt)
    mp_sample_prompt ();
  return kept;
}

/* ---- frees in signal handlers ----------------------------------------- */

/* A node for T's deferred stack, of the entry of BLOCK as it is now
   (see the design), or NULL when own.c's memory ran out: the free is
   lost, and counted.  T's handlers only: T is busy.  */
static struct mp_tracked *
defer_node (struct mp_thread *t, void *block)
{
  struct mp_tracked *n = atomic_load (&t->deferred_spare);
  while (n != NULL
         && !atomic_compare_exchange_weak (&t->deferred_spare, &n, n->queued))
    ;
  if (n == NULL && (n = mp_own_alloc (sizeof *n)) == NULL)
    {
      atomic_fetch_add (&lost_frees, 1);
      return NULL;
    }
  *n = (struct mp_tracked) {
    .block = block, .deferred = DEFER_END,
    .seq = atomic_load_explicit (&n_puts, memory_order_acquire) };
  return n;
}

/* Push node N (NULL: none), asking for WHAT, on T's deferred stack.  */
static void
defer (struct mp_thread *t, struct mp_tracked *n, unsigned char what)
{
  if (n == NULL)
    return;
  n->deferred = what;
  struct mp_tracked *head = atomic_load (&t->deferred);
  do
    n->queued = head;
  while (!atomic_compare_exchange_weak (&t->deferred, &head, n));
  mp_busy.deferred = 1;
}

static void end_malloc (struct mp_tracked *e, int keep);

/* Under mp_profile_lock: end what T's deferred stack asks for, and give
   its nodes back to T.  The profile hears of each death here; an entry
   with metadata goes to the queue for its dealloc_major, since program
   code may not run here.  */
static void
drain (struct mp_thread *t)
{
  struct mp_tracked *n = atomic_exchange (&t->deferred, NULL);
  while (n != NULL)
    {
      struct mp_tracked *next = n->queued;
      struct mp_tracked *e = n->deferred == DEFER_END
                             ? table_take (n->block, 0, n->seq) : NULL;
      if (e)
        end_malloc (e, e->meta != NULL);
      if (e && e->meta)
        {
          e->profile = NULL;    /* dead there already */
          e->dead = 1;
          enqueue (e);
          mp_sample_prompt ();
        }
      struct mp_tracked *spares = atomic_load (&t->deferred_spare);
      do
        n->queued = spares;
      while (!atomic_compare_exchange_weak (&t->deferred_spare, &spares, n));
      n = next;
    }
}

/* The calling thread's deferred frees: the flag is cleared before the
   stack is taken, so that a handler's push after the take sets it
   again.  */
void
mp_tracked_drain (void)
{
  mp_busy.deferred = 0;
  atomic_signal_fence (memory_order_seq_cst);
  if (mp_self_tls)
    drain (mp_self_tls);
}

void
mp_tracked_drain_unlocked (void)
{
  mp_profile_acquire ();
  mp_profile_release ();        /* which ends them */
}

long
mp_tracked_lost (void)
{
  return atomic_load (&lost_frees);
}

/* ---- ends ------------------------------------------------------------- */

/* The entry of BLOCK (a GC block if GC), taken off the table: the
   caller ends it or keeps it.  NULL if the block is not followed.  Boehm
   must not have freed the block yet, or another block at its address
   could be taken instead.  */
struct mp_tracked *
mp_tracked_take (void *block, int gc)
{
  if (gc
      && atomic_load_explicit (filter_of (block), memory_order_relaxed) == 0)
    return NULL;
  if (MP_UNLIKELY (mp_busy.depth) && !gc && mp_self_tls)
    return defer_node (mp_self_tls, block);
  mp_profile_acquire ();
  struct mp_tracked *e = table_take (block, gc, UINT64_MAX);
  if (e && gc)
    e->taken = (uint32_t) atomic_load (&reclaimed);
  mp_profile_release ();
  if (e && gc)
    GC_unregister_long_link ((void **) &e->link);
  return e;
}

/* Under mp_profile_lock: the death of E's malloc block, for the
   profile; E is spare unless KEEP, a callback still due for it.  */
static void
end_malloc (struct mp_tracked *e, int keep)
{
  if (e->profile)
    mp_profile_dead (e->profile, &e->est);
  if (keep)
    return;
  e->next = spare;
  spare = e;
}

/* E's block was freed by T: its death, now for a malloc block (in T),
   through the queue for a GC block (it may have a promotion due).  */
void
mp_tracked_end (struct mp_thread *t, struct mp_tracked *e)
{
  if (e == NULL)
    return;
  if (e->deferred)
    {
      defer (t, e, DEFER_END);
      return;
    }
  if (e->gc)
    {
      mp_profile_acquire ();
      catch_up (e);
      e->dead = 1;
      enqueue (e);
      mp_profile_release ();
      mp_deliver (t);
      return;
    }
  struct mp_tracker tr;
  int call = e->meta && mp_sample_tracker (&tr) == e->session
             && tr.dealloc_major;
  mp_profile_acquire ();
  end_malloc (e, call);
  mp_profile_release ();
  if (!call)
    return;
  int saved;
  if (mp_callback_begin (t, e->session, &saved))
    {
      int ev = mp_ev_begin (MP_EV_DEALLOC_MAJOR);
      tr.dealloc_major (e->meta, tr.data);
      mp_ev_end (MP_EV_DEALLOC_MAJOR, ev);
      mp_callback_end (t, saved);
    }
  entry_free (e);
}

/* The malloc block BLOCK was freed by T: mp_tracked_take and
   mp_tracked_end, in one lock when no callback is due.  */
void
mp_tracked_free (struct mp_thread *t, void *block)
{
  if (MP_UNLIKELY (mp_busy.depth))
    {
      defer (t, defer_node (t, block), DEFER_END);
      return;
    }
  mp_profile_acquire ();
  struct mp_tracked *e = table_take (block, 0, UINT64_MAX);
  int quiet = e != NULL && e->meta == NULL;
  if (quiet)
    end_malloc (e, 0);
  mp_profile_release ();
  if (e != NULL && !quiet)
    mp_tracked_end (t, e);
}

/* E's block lives on after all (a realloc that failed or stayed in
   place): follow it again.  */
void
mp_tracked_keep (struct mp_tracked *e)
{
  if (e == NULL)
    return;
  if (e->deferred)
    {
      defer (mp_self_tls, e, DEFER_KEEP);
      return;
    }
  if (e->gc)
    {
      e->link = GC_HIDE_POINTER (e->block);
      if (GC_register_long_link ((void **) &e->link, e->block) != GC_SUCCESS)
        {
          /* Not followed, so not live in the profile either: dead
             there from now on, without callbacks.  */
          mp_warn ("cannot follow a sampled GC block any more");
          e->meta = NULL;
          e->dead = 1;          /* delivered as nothing, and freed */
          mp_profile_acquire ();
          enqueue (e);
          mp_profile_release ();
          return;
        }
    }
  mp_profile_acquire ();
  int promoted = e->gc && catch_up (e);
  table_put (e);
  mp_profile_release ();
  if (promoted)
    mp_sample_prompt ();        /* as after a reclaim */
}

/* GC_EVENT_RECLAIM_END, from the collector: see the design above.  */
void
mp_tracked_after_reclaim (void)
{
  uint64_t epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_acquire);
  if (atomic_load_explicit (&n_gc, memory_order_relaxed) == 0)
    {
      atomic_store (&reclaimed, epoch);   /* nothing to look at */
      return;
    }
  mp_profile_acquire ();
  atomic_store (&reclaimed, epoch);
  for (size_t i = 0; i < n_buckets; i++)
    for (struct mp_tracked **p = &buckets[i]; *p;)
      {
        struct mp_tracked *e = *p;
        if (e->gc && e->link == 0)
          {
            table_unlink (p);   /* Boehm dropped the link as it cleared it */
            e->dead = 1;
            enqueue (e);
            continue;
          }
        if (e->gc && e->epoch != epoch)
          survived (e);
        p = &e->next;
      }
  int prompt = atomic_load (&queue_nonempty);
  mp_profile_release ();
  if (prompt)
    mp_sample_prompt ();
}

/* ---- delivery ----------------------------------------------------------- */

/* What the queue said of an entry, read under mp_profile_lock when it
   was taken.  */
struct due
{
  void *meta;
  unsigned session;
  struct mp_profile_stack *profile;
  struct mp_space_amount est;
  unsigned char promote, dead, was_young;
};

/* The tracker's callbacks due for E, with TR (NULL: the tracker no
   longer follows E); return the metadata they leave.  */
static void *
deliver_to_tracker (struct mp_thread *t, struct due d,
                    const struct mp_tracker *tr)
{
  void *meta = tr ? d.meta : NULL;
  int saved;
  if (meta == NULL || !mp_callback_begin (t, d.session, &saved))
    return NULL;
  if (d.promote && tr->promote)
    {
      int ev = mp_ev_begin (MP_EV_PROMOTE);
      meta = tr->promote (meta, tr->data);
      mp_ev_end (MP_EV_PROMOTE, ev);
    }
  else if (d.promote)
    meta = NULL;
  if (d.dead && meta != NULL)
    {
      void (*fn) (void *, void *)
        = d.was_young ? tr->dealloc_minor : tr->dealloc_major;
      enum mp_event e = d.was_young ? MP_EV_DEALLOC_MINOR : MP_EV_DEALLOC_MAJOR;
      int ev = fn ? mp_ev_begin (e) : 0;
      if (fn)
        fn (meta, tr->data);
      mp_ev_end (e, ev);
    }
  mp_callback_end (t, saved);
  return meta;
}

/* Deliver what D says is due for E, which was taken off the queue.  */
static void
deliver_one (struct mp_thread *t, struct mp_tracked *e, struct due d,
             const struct mp_tracker *tr)
{
  void *meta = deliver_to_tracker (t, d, tr);
  if (d.dead)
    {
      entry_free (e);           /* off the table, and ours */
      return;
    }
  if (!d.promote || tr == NULL)
    return;
  /* Promoted, and in the table.  If the session is still the same,
     under mp_profile_lock, mp_tracked_forget_all has not freed E.  */
  mp_profile_acquire ();
  struct mp_tracked *untrack = NULL;
  if (mp_sample_session () == d.session)
    {
      e->meta = meta;
      if (meta == NULL && e->profile == NULL && table_remove (e))
        untrack = e;            /* promote said stop */
    }
  mp_profile_release ();
  if (untrack)
    {
      GC_unregister_long_link ((void **) &untrack->link);
      entry_free (untrack);
    }
}

/* Take the next entry off the queue, with what is due for it; the
   profile's part of it done, under the same lock.  */
static struct mp_tracked *
next_due (struct due *d)
{
  mp_profile_acquire ();
  struct mp_tracked *e = dequeue ();
  if (e)
    {
      *d = (struct due) { e->meta, e->session, e->profile, e->est,
                          e->promote_due, e->dead,
                          e->young && !e->promote_due };
      e->promote_due = 0;
      if (d->profile && d->promote)
        mp_profile_promote (d->profile, d->est.data);
      if (d->profile && d->dead)
        mp_profile_dead (d->profile, &d->est);
    }
  mp_profile_release ();
  return e;
}

void
mp_tracked_deliver (struct mp_thread *t)
{
  while (atomic_load (&queue_nonempty) && !t->in_callback
         && !atomic_exchange (&delivering, 1))
    {
      struct due d;
      for (struct mp_tracked *e; (e = next_due (&d));)
        {
          struct mp_tracker tr;
          int current = d.meta && mp_sample_tracker (&tr) == d.session;
          deliver_one (t, e, d, current ? &tr : NULL);
        }
      atomic_store (&delivering, 0);
    }
}

/* ---- stop --------------------------------------------------------------- */

/* The tracker stopped: forget its metadata, without callbacks, and stop
   following the blocks that only it followed.  */
void
mp_tracked_forget_all (void)
{
  struct mp_tracked *drop = NULL;
  mp_profile_acquire ();
  for (size_t i = 0; i < n_buckets; i++)
    for (struct mp_tracked **p = &buckets[i]; *p;)
      {
        struct mp_tracked *e = *p;
        e->meta = NULL;
        if (e->profile || e->in_queue)
          {
            p = &e->next;       /* still followed, or delivered later */
            continue;
          }
        table_unlink (p);
        e->next = drop;
        drop = e;
      }
  for (struct mp_tracked *e = queue_head; e; e = e->queued)
    e->meta = NULL;
  mp_profile_release ();
  struct mp_tracked *last = NULL;
  for (struct mp_tracked *e = drop; e; last = e, e = e->next)
    if (e->gc)
      GC_unregister_long_link ((void **) &e->link);
  if (last == NULL)
    return;
  mp_profile_acquire ();
  last->next = spare;
  spare = drop;
  mp_profile_release ();
}

/* See fork.c: mp_profile_fork takes our lock, this thread busy from
   before until after (a handler's sample or free must not wait for
   it).  The queue's deliverer may be a thread that did not follow: the
   child delivers the rest itself, and ends the deferred frees of the
   threads that did not follow, whose blocks are free.  */
void
mp_tracked_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_PREPARE)
    {
      mp_busy_enter ();         /* this thread holds the locks */
      return;
    }
  if (step == MP_FORK_CHILD)
    {
      atomic_store (&delivering, 0);
      mp_profile_acquire ();
      for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
        if (t != mp_self_tls)
          drain (t);
      mp_profile_release ();
    }
  mp_busy_leave ();
}
