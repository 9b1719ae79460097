/* generations.c -- OCaml's generational accounting on Boehm's heap.

   A GC block is young from its allocation until the next collection; if
   it survives that collection it is promoted.  Boehm does not move
   blocks, so survival is its mark bit at the end of marking.  Each thread
   logs its young blocks (address, words, epoch) in its own array; the
   collector reads every log at GC_EVENT_MARK_END, when Boehm has just
   finished marking, still holds its lock and keeps the world stopped, so
   no thread is appending.  Words of marked young blocks are promoted.

   A thread may be stopped anywhere, including between getting a block
   from GC_malloc and logging it.  Entries carry the epoch (collections
   completed, mod 16) in which the block was allocated, so an entry that
   lands after its collection has been decided is still recognised: it
   survived that collection (the allocating thread held it), and the next
   decision promotes it without looking at its mark bit.  When a
   collection ran during the GC_malloc call itself, the epoch of the block
   is unknown: its mark bit, read under the GC lock, tells whether it
   existed before that collection (mp_young_log).

   Entries: bits 0-3 epoch mod 16 (Boehm objects are 16-byte aligned),
   bits 4-47 the address, bits 48-63 the size in words (at most
   MP_MAX_YOUNG_WOSIZE).  0 is a tombstone for a block freed while young. */

#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <pthread.h>
#include "internal.h"

#define GC_THREADS
#include <gc.h>
#include <gc/gc_mark.h>

#define FORGET_WINDOW 512

/* Collections completed (see internal.h).  The collector is the only
   writer, under the GC lock with the world stopped.  */
_Atomic uint64_t mp_gc_epoch;
mp_counter mp_promoted_words;
mp_counter mp_minor_collections, mp_major_collections;
mp_counter mp_top_heap_bytes;

/* Set at GC_EVENT_START, so that the MARK_END that follows counts as a
   major collection.  Guarded by the GC lock.  */
static int full_pending;

/* The program's own collection-event and heap-resize callbacks, called
   after ours.  */
static GC_on_collection_event_proc chained_event;
static GC_on_heap_resize_proc chained_resize;

/* Heap sections: Boehm's initial one, plus one per growth.  Written
   under the GC lock (resize callbacks run holding it).  */
mp_counter mp_heap_chunks;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

/* Set once Boehm is started: readers may then ask it about its heap.  */
static atomic_int started;

int
mp_gc_started (void)
{
  return atomic_load_explicit (&started, memory_order_acquire);
}

static uint64_t
decide_log (struct mp_young *y, uint64_t epoch)
{
  size_t n = atomic_load_explicit (&y->count, memory_order_acquire);
  size_t i = atomic_load_explicit (&y->done, memory_order_relaxed);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_acquire);
  uint64_t promoted = 0;
  if (i >= n)
    return 0;
  for (; i < n; i++)
    {
      uint64_t v = __atomic_load_n (&e[i], __ATOMIC_RELAXED);
      if (v == 0)
        continue;
      if ((v & MP_EPOCH_MASK) != (epoch & MP_EPOCH_MASK)
          || GC_is_marked ((void *) (uintptr_t) (v & MP_ADDR_MASK)))
        promoted += v >> MP_WORDS_SHIFT;
    }
  atomic_store_explicit (&y->done, n, memory_order_relaxed);
  return promoted;
}

static void
end_of_marking (void)
{
  uint64_t epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_relaxed);
  uint64_t promoted = 0;
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    promoted += decide_log (&t->young, epoch);
  mp_add (&mp_promoted_words, (int64_t) promoted);
  mp_add (&mp_minor_collections, 1);
  if (full_pending)
    mp_add (&mp_major_collections, 1);
  full_pending = 0;
  int64_t heap = (int64_t) GC_get_heap_size ();
  if (heap > mp_get_counter (&mp_top_heap_bytes))
    atomic_store_explicit (&mp_top_heap_bytes, heap, memory_order_relaxed);
  atomic_store_explicit (&mp_gc_epoch, epoch + 1, memory_order_release);
}

static void
on_collection_event (GC_EventType event)
{
  if (event == GC_EVENT_START)
    full_pending = 1;
  else if (event == GC_EVENT_MARK_END)
    end_of_marking ();
  if (chained_event)
    chained_event (event);
}

/* The thread that started Boehm, if it is not the main thread: GC_init
   registered it, and nobody but us will unregister it.  Written once in
   setup, under setup_once.  */
static pthread_t starter;
static int starter_is_ours;

static void
on_heap_resize (GC_word new_size)
{
  mp_add (&mp_heap_chunks, 1);
  if (chained_resize)
    chained_resize (new_size);
}

static void
setup (void)
{
  if (!GC_is_init_called () && getpid () != gettid ())
    {
      starter = pthread_self ();
      starter_is_ours = 1;
    }
  GC_init ();
  /* Threads the program creates without gc.h's redirection must be able
     to register.  This has to happen now, while no other thread can be
     inside Boehm: it makes Boehm lock its allocator (and start its
     parallel markers), which it cannot switch on under a running
     allocation.  */
  GC_allow_register_threads ();
  if (mp_config.incremental)
    GC_enable_incremental ();
  chained_event = GC_get_on_collection_event ();
  GC_set_on_collection_event (on_collection_event);
  chained_resize = GC_get_on_heap_resize ();
  GC_set_on_heap_resize (on_heap_resize);
  /* Boehm's initial heap was made by GC_init, before we could see it.  */
  mp_add (&mp_heap_chunks, 1);
  atomic_store_explicit (&started, 1, memory_order_release);
}

/* Start Boehm and our accounting, once.  Return 1 if the calling thread
   is one that Boehm registered while starting and that we must
   unregister when it exits.  */
int
mp_gc_setup (void)
{
  pthread_once (&setup_once, setup);
  return starter_is_ours && pthread_equal (starter, pthread_self ());
}

/* Room for one more entry in Y: drop the decided entries, and grow the
   array if none was decided.  Runs under the GC lock, so that no
   collection reads the log while it moves.  */
static void *
make_room (void *arg)
{
  struct mp_young *y = arg;
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  size_t done = atomic_load_explicit (&y->done, memory_order_relaxed);
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  if (done > 0)
    memmove (e, e + done, (n - done) * sizeof *e);
  atomic_store_explicit (&y->count, n - done, memory_order_relaxed);
  atomic_store_explicit (&y->done, 0, memory_order_relaxed);
  if (n - done < y->capacity)
    return NULL;
  size_t cap = y->capacity ? y->capacity * 2 : 4096;
  e = realloc (e, cap * sizeof *e);
  if (e == NULL)
    {
      mp_warn ("out of memory for the young-block log");
      abort ();
    }
  atomic_store_explicit (&y->entries, e, memory_order_relaxed);
  y->capacity = cap;
  return NULL;
}

struct mark_query
{
  void *base;
  int marked;
  uint64_t epoch;
};

static void *
query_mark (void *arg)
{
  struct mark_query *q = arg;
  q->marked = GC_is_marked (q->base);
  q->epoch = atomic_load_explicit (&mp_gc_epoch, memory_order_relaxed);
  return NULL;
}

/* The epoch of BASE, allocated while a collection ran: a block from
   before the collection was held by its thread, hence marked, and gets
   an older epoch so that the next decision promotes it.  */
uint64_t
mp_young_epoch_of (void *base)
{
  struct mark_query q = { base, 0, 0 };
  GC_call_with_alloc_lock (query_mark, &q);
  return q.marked ? q.epoch - 1 : q.epoch;
}

/* Make room in T's log for one more entry.  */
void
mp_young_make_room (struct mp_thread *t)
{
  GC_call_with_alloc_lock (make_room, &t->young);
}

/* BASE, allocated by T, is being freed: if it is still young and among
   T's latest FORGET_WINDOW blocks (a bound, so that freeing an old block
   stays cheap), make sure it is not promoted.  A block freed by another
   thread, or logged long before, keeps its entry; its mark bit is clear
   unless Boehm reuses the address before the next collection.  */
void
mp_young_forget (struct mp_thread *t, void *base)
{
  struct mp_young *y = &t->young;
  size_t n = atomic_load_explicit (&y->count, memory_order_relaxed);
  size_t done = atomic_load_explicit (&y->done, memory_order_relaxed);
  size_t stop = n - done > FORGET_WINDOW ? n - FORGET_WINDOW : done;
  uint64_t *e = atomic_load_explicit (&y->entries, memory_order_relaxed);
  for (size_t i = n; i-- > stop;)
    if ((__atomic_load_n (&e[i], __ATOMIC_RELAXED) & MP_ADDR_MASK)
        == (uintptr_t) base)
      {
        __atomic_store_n (&e[i], 0, __ATOMIC_RELAXED);
        return;
      }
}
