/* fork () while threads that captured call stacks exit.  libunwind
   keeps a cache of frames per thread, which a thread-specific data
   destructor of its own gives back to a pool, under the pool's lock: a
   child forked meanwhile inherits the lock held, and waits for it
   forever, its signals blocked, at its first capture in a thread that
   has no cache yet (runtime/callstack.c).

   That lock is held for a few instructions, so the first part widens
   the window: this program's pthread_mutex_lock, which libunwind calls
   too, naps after taking a lock for libunwind in a thread that has
   started to exit, and the main thread forks meanwhile.  Its child
   captures in its main thread, which never captured, and in a new
   thread.  The second part is the same race unaided: short-lived
   threads that capture, forks in a loop, children that capture.  No
   child may hang, and every count is exact.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,stacks=64,report=none" } */
/* { dg-timeout 300 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#define _GNU_SOURCE             /* dladdr, RTLD_NEXT */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include "../lib/mptest.h"
#include "../lib/mpfork.h"

#define WIDENED 3               /* forks with the window widened */
#define NAP_MS 100              /* how long it is held then */
#define SPAWNERS 3
#define FORKS 150               /* forks unaided */

static unsigned l_capture;
static atomic_long captures;    /* allocations at l_capture */

/* ---- the widened window ------------------------------------------------- */

typedef int (*lock_fn) (pthread_mutex_t *);
static _Atomic (lock_fn) real_lock;

static atomic_int widen;        /* set during the first part */
static atomic_int held_long;    /* an exiting thread naps holding a lock */
static __thread int exiting;    /* this thread runs its destructors */

static int
in_libunwind (void *code)
{
  Dl_info info;
  return dladdr (code, &info) && info.dli_fname
         && strstr (info.dli_fname, "libunwind") != NULL;
}

/* glibc's, then a nap if the lock is libunwind's, taken by an exiting
   thread: only its cache's destructor takes one then.  */
int
pthread_mutex_lock (pthread_mutex_t *m)
{
  lock_fn real = atomic_load (&real_lock);
  if (real == NULL)
    {
      real = (lock_fn) dlsym (RTLD_NEXT, "pthread_mutex_lock");
      atomic_store (&real_lock, real);
    }
  int r = real (m);
  if (exiting && atomic_load (&widen)
      && in_libunwind (__builtin_return_address (0)))
    {
      atomic_store (&held_long, 1);
      struct timespec nap = { 0, NAP_MS * 1000000L };
      while (nanosleep (&nap, &nap) != 0)
        ;
    }
  return r;
}

static pthread_key_t exit_key;

static void
mark_exiting (void *arg)
{
  (void) arg;
  exiting = 1;
}

/* ---- threads that capture ------------------------------------------------ */

static __attribute__ ((noinline)) void
capture (void)
{
  char *p = malloc (24); l_capture = __LINE__;
  __asm__ volatile ("" : : "r" (p) : "memory");
  free (p);
  atomic_fetch_add (&captures, 1);
}

static void *
brief (void *arg)
{
  (void) arg;
  pthread_setspecific (exit_key, (void *) 1);
  capture ();
  return NULL;
}

static void *
child_thread (void *arg)
{
  (void) arg;
  mpt_child_allocate (1);
  return NULL;
}

/* Fork a child that captures in this thread and in a new one; 0 if it
   counted both within 30 s.  */
static int
fork_capturing_child (void)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      mpt_child_allocate (1);
      pthread_t c;
      if (pthread_create (&c, NULL, child_thread, NULL) != 0)
        _exit (4);
      pthread_join (c, NULL);
      _exit (mpt_child_count () == 2 ? 0 : 3);
    }
  return pid < 0 ? 1 : mpt_wait_child (pid, 30);
}

static int
widened (void)
{
  int failed = 0;
  atomic_store (&widen, 1);
  for (int i = 0; i < WIDENED && failed == 0; i++)
    {
      atomic_store (&held_long, 0);
      pthread_t t;
      CHECK_EQ (pthread_create (&t, NULL, brief, NULL), 0);
      double end = mpt_now () + 60;
      while (!atomic_load (&held_long) && mpt_now () < end)
        sched_yield ();
      CHECK (atomic_load (&held_long));       /* the window was widened */
      failed += fork_capturing_child ();
      pthread_join (t, NULL);
    }
  atomic_store (&widen, 0);
  return failed;
}

/* ---- unaided ------------------------------------------------------------- */

static int
unaided (void)
{
  static struct mpt_spawning spawning;
  CHECK_EQ (mpt_spawning_start (&spawning, SPAWNERS, brief), 0);
  int failed = 0;
  for (int i = 0; i < FORKS && failed == 0; i++)
    failed += fork_capturing_child ();
  mpt_spawning_stop (&spawning);
  return failed;
}

int
main (void)
{
  mpt_child_allocate (0);
  CHECK_EQ (pthread_key_create (&exit_key, mark_exiting), 0);
  CHECK_EQ (widened (), 0);
  CHECK_EQ (unaided (), 0);
  CHECK_EQ (SITE (l_capture).s.numAllocate, atomic_load (&captures));
  CHECK_EQ (mpt_child_count (), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
