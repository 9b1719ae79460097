/* thread.c -- per-thread records and the registry that sums them.

   A thread gets its record on its first call into the runtime: zero-filled
   memory from mmap, at the head of its per-site counters (sites.c).  At thread exit the record is marked free and
   kept in the registry with its counts; the next new thread takes it over
   and keeps adding to the same counters.  */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "generations.h"
#include "init.h"
#include "eventlog.h"
#include "foreign.h"
#include "sample.h"

#include "gcweak.h"

__thread struct mp_thread *mp_self_tls __attribute__ ((tls_model ("initial-exec")));
struct mp_thread mp_no_fast_thread = { .sample_left = MP_NO_FAST };
__thread struct mp_thread *mp_fast_tls __attribute__ ((tls_model ("initial-exec")))
  = &mp_no_fast_thread;
__thread struct mp_thread *mp_gc_tls __attribute__ ((tls_model ("initial-exec")));

/* All records ever made, newest first (see internal.h).  */
_Atomic (struct mp_thread *) mp_threads;

/* Global bytesUsed at the last flushes and its high tide: written with
   atomic read-modify-writes by any thread flushing.  */
mp_counter mp_bytes_used_flushed;
_Atomic int64_t mp_bytes_high_tide;

/* The flushes under way and those done, counted by any thread flushing
   (mp_flush_used), read by mp_sum_used_apart.  */
static atomic_uint flushing;
static atomic_ulong flushed;

/* Gives each thread's exit to thread_exit; made once by mp_init.  */
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void
raise_high_tide (int64_t candidate)
{
  int64_t old = atomic_load (&mp_bytes_high_tide);
  while (candidate > old
         && !atomic_compare_exchange_weak (&mp_bytes_high_tide, &old, candidate))
    ;
}

/* Move T's unflushed bytesUsed change into the global count, raising the
   high tide by the peak T reached since its last flush.  */
void
mp_flush_used (struct mp_thread *t)
{
  atomic_fetch_add (&flushing, 1);
  int64_t d = mp_get_counter (&t->used_delta);
  int64_t before = atomic_fetch_add (&mp_bytes_used_flushed, d);
  raise_high_tide (before + mp_get_counter (&t->used_peak));
  raise_high_tide (before + d);
  atomic_store_explicit (&t->used_delta, 0, memory_order_relaxed);
  atomic_store_explicit (&t->used_peak, 0, memory_order_relaxed);
  atomic_fetch_add (&flushed, 1);
  atomic_fetch_sub (&flushing, 1);
}

void
mp_sum_used_apart (void (*fn) (void *arg), void *arg)
{
  for (int tries = 0;; tries++)
    {
      unsigned long done = atomic_load (&flushed);
      int quiet = atomic_load (&flushing) == 0;
      fn (arg);
      if ((quiet && atomic_load (&flushing) == 0
           && atomic_load (&flushed) == done) || tries >= 500)
        return;
      sched_yield ();
    }
}

static void
thread_exit (void *arg)
{
  struct mp_thread *t = arg;
  mp_flush_used (t);
  if (t->gc_registered == MP_GC_REGISTERED_BY_US)
    GC_unregister_my_thread ();
  t->gc_registered = MP_GC_UNKNOWN;
  t->user_site = NULL;
  t->guest_site = NULL;         /* a VM thread may end inside a procedure */
  mp_callback_abandon (t);      /* the thread may exit from a callback */
  mp_eventlog_thread_exit ();
  mp_foreign_thread_exit ();
  mp_self_tls = mp_gc_tls = NULL;
  mp_fast_tls = &mp_no_fast_thread;
  atomic_store_explicit (&t->in_use, 0, memory_order_release);
}

static void
make_key (void)
{
  if (pthread_key_create (&exit_key, thread_exit) != 0)
    mp_warn ("cannot watch thread exits; records of exited threads "
             "will not be reused");
}

/* A free record, or a new one pushed on the registry.  */
static struct mp_thread *
claim_record (void)
{
  for (struct mp_thread *t = atomic_load (&mp_threads); t; t = t->next)
    {
      int expected = 0;
      if (atomic_load_explicit (&t->in_use, memory_order_relaxed) == 0
          && atomic_compare_exchange_strong (&t->in_use, &expected, 1))
        return t;
    }
  struct mp_thread *t = mp_sites_new_record ();
  if (t == NULL)
    {
      mp_warn ("cannot allocate a thread record (%s), not even the "
               "counters in use: aborting", strerror (errno));
      abort ();
    }
  return t;
}

/* The first call of a thread: the program's errno must come out as it
   went in, whatever starting the runtime did to it.  */
struct mp_thread *
mp_thread_slow (void)
{
  int saved = errno;
  mp_init ();
  pthread_once (&key_once, make_key);
  struct mp_thread *t = claim_record ();
  /* A signal handler that allocated while the record was being made
     (sites.c lets it in as the site table's lock is released) made one
     of its own and took it: this one goes back, rather than stay in use
     for ever.  From the look to the store, no handler comes between.  */
  sigset_t old;
  mp_block_signals (&old);
  struct mp_thread *h = mp_self_tls;
  if (MP_UNLIKELY (h != NULL))
    {
      pthread_sigmask (SIG_SETMASK, &old, NULL);
      atomic_store_explicit (&t->in_use, 0, memory_order_release);
      errno = saved;
      return h;
    }
  mp_young_claim (t);
  mp_self_tls = t;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_setspecific (exit_key, t);
  errno = saved;
  return t;
}
