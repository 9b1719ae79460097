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
   queue (mp_tracked_deliver).  GC_free and GC_realloc end a block through
   the same queue.  One thread delivers at a time, in queue order, so a
   block's callbacks keep OCaml's order: alloc, promote, dealloc.

   Locking.  `lock` guards the table, the queue and the entries' state.
   It is never held while calling Boehm (which may take the GC lock) or a
   callback.  The collector takes it at RECLAIM_END, holding the GC lock
   with no thread stopped; since no holder of `lock` waits for the GC
   lock, that cannot deadlock.  An entry taken off both the table and the
   queue belongs to the thread that took it.  */

#include <stdlib.h>
#include <pthread.h>
#include "internal.h"

#define GC_THREADS
#include <gc.h>

struct entry
{
  struct entry *next;           /* bucket chain, while in_table */
  struct entry *queued;         /* next in the queue, while in_queue */
  void *block;                  /* the block's address: the key */
  GC_hidden_pointer link;       /* GC blocks: Boehm clears it at reclaim */
  void *meta;                   /* what the last callback returned; NULL
                                   once the tracker stopped following */
  struct mp_profile_stack *profile;  /* the report's record, or NULL */
  double bytes;                 /* the profile's estimate of the block */
  uint64_t epoch;               /* mp_gc_epoch when the block was made */
  unsigned session;             /* mp_memprof_start call it belongs to */
  unsigned char gc, young;      /* a GC block; not yet promoted */
  unsigned char in_table, in_queue;
  unsigned char promote_due, dead;  /* callbacks to deliver */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry **buckets;  /* guarded by lock */
static size_t n_buckets, n_entries;
static struct entry *queue_head, **queue_tail = &queue_head;
static _Atomic size_t n_gc;     /* GC entries in the table: written under
                                   lock, read without by GC_free */
static atomic_int queue_nonempty;   /* written under lock */
static atomic_int delivering;   /* 1 while a thread delivers the queue */

/* ---- the table and the queue (under lock) ----------------------------- */

static size_t
bucket_of (const void *block, size_t n)
{
  return ((uintptr_t) block >> 4) % n;
}

static void
table_put (struct entry *e)
{
  if (n_entries >= n_buckets)
    {
      size_t size = n_buckets ? 2 * n_buckets : 1024;
      struct entry **b = calloc (size, sizeof *b);
      if (b != NULL)
        {
          for (size_t i = 0; i < n_buckets; i++)
            for (struct entry *x = buckets[i], *next; x; x = next)
              {
                next = x->next;
                x->next = b[bucket_of (x->block, size)];
                b[bucket_of (x->block, size)] = x;
              }
          free (buckets);
          buckets = b;
          n_buckets = size;
        }
      /* else the table keeps its size, and its chains grow */
    }
  struct entry **head = &buckets[bucket_of (e->block, n_buckets)];
  e->next = *head;
  *head = e;
  e->in_table = 1;
  n_entries++;
  if (e->gc)
    atomic_fetch_add (&n_gc, 1);
}

static void
table_unlink (struct entry **p)
{
  struct entry *e = *p;
  *p = e->next;
  e->in_table = 0;
  n_entries--;
  if (e->gc)
    atomic_fetch_sub (&n_gc, 1);
}

/* Take the live entry of BLOCK (of the GC or malloc kind GC) off the
   table; NULL if there is none.  */
static struct entry *
table_take (const void *block, int gc)
{
  if (n_buckets == 0)
    return NULL;
  for (struct entry **p = &buckets[bucket_of (block, n_buckets)]; *p;
       p = &(*p)->next)
    if ((*p)->block == block && (*p)->gc == gc)
      {
        struct entry *e = *p;
        table_unlink (p);
        return e;
      }
  return NULL;
}

static void
enqueue (struct entry *e)
{
  if (e->in_queue)
    return;
  e->in_queue = 1;
  e->queued = NULL;
  *queue_tail = e;
  queue_tail = &e->queued;
  atomic_store (&queue_nonempty, 1);
}

static struct entry *
dequeue (void)
{
  struct entry *e = queue_head;
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

/* ---- making entries ----------------------------------------------------- */

/* Follow the block S describes; return 1 if it is followed.  */
int
mp_tracked_add (const struct mp_sampled *s)
{
  if (s->meta == NULL && s->profile == NULL)
    return 0;
  struct entry *e = calloc (1, sizeof *e);
  if (e == NULL)
    {
      mp_warn ("out of memory for a sampled block; it is not followed");
      return 0;
    }
  *e = (struct entry) { .block = s->block, .meta = s->meta,
                        .profile = s->profile, .bytes = s->bytes,
                        .epoch = s->epoch, .session = s->session,
                        .gc = (unsigned char) s->gc,
                        .young = (unsigned char) s->young };
  e->link = GC_HIDE_POINTER (s->block);
  if (s->gc && GC_register_long_link ((void **) &e->link, s->block)
               != GC_SUCCESS)
    {
      mp_warn ("cannot follow a sampled GC block");
      free (e);
      return 0;
    }
  pthread_mutex_lock (&lock);
  if (s->session != mp_sample_session ())
    e->meta = NULL;             /* the tracker stopped meanwhile */
  int kept = e->meta != NULL || e->profile != NULL;
  if (kept)
    {
      table_put (e);
      /* A collection ran since the block was made, which it survived:
         the allocating thread held it.  */
      if (e->young
          && e->epoch != atomic_load_explicit (&mp_gc_epoch,
                                               memory_order_acquire))
        {
          e->young = 0;
          e->promote_due = 1;
          enqueue (e);
        }
    }
  int prompt = atomic_load (&queue_nonempty);
  pthread_mutex_unlock (&lock);
  if (!kept)
    {
      if (s->gc)
        GC_unregister_long_link ((void **) &e->link);
      free (e);
    }
  else if (prompt)
    mp_sample_prompt ();
  return kept;
}

/* ---- ends ------------------------------------------------------------- */

void
mp_tracked_free_malloc (struct mp_thread *t, void *block)
{
  pthread_mutex_lock (&lock);
  struct entry *e = table_take (block, 0);
  pthread_mutex_unlock (&lock);
  if (e == NULL)
    return;               /* tracking stopped since the block was sampled */
  if (e->profile)
    mp_profile_dead (e->profile, e->bytes);
  struct mp_tracker tr;
  if (e->meta && mp_sample_tracker (&tr) == e->session && tr.dealloc_major)
    {
      t->in_callback = 1;
      tr.dealloc_major (e->meta, tr.data);
      t->in_callback = 0;
    }
  free (e);
}

void
mp_tracked_free_gc (struct mp_thread *t, void *block)
{
  if (atomic_load_explicit (&n_gc, memory_order_relaxed) == 0)
    return;
  pthread_mutex_lock (&lock);
  struct entry *e = table_take (block, 1);
  pthread_mutex_unlock (&lock);
  if (e == NULL)
    return;
  /* Off the table, not queued: E is this thread's until queued again.  */
  GC_unregister_long_link ((void **) &e->link);
  pthread_mutex_lock (&lock);
  e->dead = 1;
  enqueue (e);
  pthread_mutex_unlock (&lock);
  mp_tracked_deliver (t);
}

/* GC_EVENT_RECLAIM_END, from the collector: see the design above.  */
void
mp_tracked_after_reclaim (void)
{
  if (atomic_load_explicit (&n_gc, memory_order_relaxed) == 0)
    return;
  uint64_t epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_acquire);
  pthread_mutex_lock (&lock);
  for (size_t i = 0; i < n_buckets; i++)
    for (struct entry **p = &buckets[i]; *p;)
      {
        struct entry *e = *p;
        if (e->gc && e->link == 0)
          {
            table_unlink (p);   /* Boehm dropped the link as it cleared it */
            e->dead = 1;
            enqueue (e);
            continue;
          }
        if (e->gc && e->young && e->epoch != epoch)
          {
            e->young = 0;
            e->promote_due = 1;
            enqueue (e);
          }
        p = &e->next;
      }
  int prompt = atomic_load (&queue_nonempty);
  pthread_mutex_unlock (&lock);
  if (prompt)
    mp_sample_prompt ();
}

/* ---- delivery ----------------------------------------------------------- */

/* What the queue said of an entry, read under lock when it was taken.  */
struct due
{
  void *meta;
  unsigned session;
  struct mp_profile_stack *profile;
  double bytes;
  unsigned char promote, dead, was_young;
};

/* The tracker's callbacks due for E, with TR (NULL: the tracker no
   longer follows E); return the metadata they leave.  */
static void *
deliver_to_tracker (struct mp_thread *t, struct due d,
                    const struct mp_tracker *tr)
{
  void *meta = tr ? d.meta : NULL;
  if (meta == NULL)
    return NULL;
  t->in_callback = 1;
  if (d.promote)
    meta = tr->promote ? tr->promote (meta, tr->data) : NULL;
  if (d.dead && meta != NULL)
    {
      void (*fn) (void *, void *)
        = d.was_young ? tr->dealloc_minor : tr->dealloc_major;
      if (fn)
        fn (meta, tr->data);
    }
  t->in_callback = 0;
  return meta;
}

/* Deliver what D says is due for E, which was taken off the queue.  */
static void
deliver_one (struct mp_thread *t, struct entry *e, struct due d,
             const struct mp_tracker *tr)
{
  if (d.profile && d.promote)
    mp_profile_promote (d.profile, d.bytes);
  if (d.profile && d.dead)
    mp_profile_dead (d.profile, d.bytes);
  void *meta = deliver_to_tracker (t, d, tr);
  if (d.dead)
    {
      free (e);                 /* off the table, and ours */
      return;
    }
  if (!d.promote || tr == NULL)
    return;
  /* Promoted, and in the table.  If the session is still the same, under
     lock, mp_tracked_forget_all has not freed E.  */
  pthread_mutex_lock (&lock);
  struct entry *untrack = NULL;
  if (mp_sample_session () == d.session)
    {
      e->meta = meta;
      if (meta == NULL && e->profile == NULL)
        untrack = table_take (e->block, 1);   /* promote said stop */
    }
  pthread_mutex_unlock (&lock);
  if (untrack)
    {
      GC_unregister_long_link ((void **) &untrack->link);
      free (untrack);
    }
}

/* Take the next entry off the queue, with what is due for it.  */
static struct entry *
next_due (struct due *d)
{
  pthread_mutex_lock (&lock);
  struct entry *e = dequeue ();
  if (e)
    {
      *d = (struct due) { e->meta, e->session, e->profile, e->bytes,
                          e->promote_due, e->dead,
                          e->young && !e->promote_due };
      e->promote_due = 0;
    }
  pthread_mutex_unlock (&lock);
  return e;
}

void
mp_tracked_deliver (struct mp_thread *t)
{
  while (atomic_load (&queue_nonempty) && !t->in_callback
         && !atomic_exchange (&delivering, 1))
    {
      struct due d;
      for (struct entry *e; (e = next_due (&d));)
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
  struct entry *drop = NULL;
  pthread_mutex_lock (&lock);
  for (size_t i = 0; i < n_buckets; i++)
    for (struct entry **p = &buckets[i]; *p;)
      {
        struct entry *e = *p;
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
  for (struct entry *e = queue_head; e; e = e->queued)
    e->meta = NULL;
  pthread_mutex_unlock (&lock);
  for (struct entry *e = drop, *next; e; e = next)
    {
      next = e->next;
      if (e->gc)
        GC_unregister_long_link ((void **) &e->link);
      free (e);
    }
}
