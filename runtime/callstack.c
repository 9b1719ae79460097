/* callstack.c -- the call stacks of sampled allocations: captured as
   return addresses when the sample falls, turned into frames
   (symbols.c) only when someone asks.

   Capture uses libunwind's unw_backtrace, which follows the DWARF call
   frame information through every frame, with or without frame
   pointers, and caches what it reads.  libunwind is loaded with dlopen
   (RTLD_LOCAL) on first use rather than linked: linked, it would put its
   own _Unwind_* functions, which C++ exceptions use, in place of
   libgcc's for the whole program.  Without it, glibc's backtrace does the
   same job, more slowly.

   The runtime's own frames are cut off: the entry point passes its
   return address RA, which is the allocating call's position in the
   program, and the stack starts at the frame that returns there.

   So are the frames outside main, as gdb's backtrace leaves them out:
   libc's start-up (__libc_start_call_main, __libc_start_main, and the
   executable's _start), and in other threads what runs their start
   routine (start_thread and clone3, and the wrappers of Boehm's
   GC_pthread_create or of a sanitizer's pthread_create).  They are told
   apart at capture, without symbols, by where they are: at the outer
   end of a stack captured whole, the entry point's code, then the
   frames in objects other than the executable and the one that holds
   the allocating call, unless that one is libc, whose own allocations
   (stdio's buffers, caught by interpose.c) start up the same way.
   Frames of libc further in, such as qsort's below a comparison
   function that allocates, stay.  MEMPROF's
   past_main keeps them all.  Then the depth applies, and a stack that
   has more frames is cut and marked (callstack.h).

   libunwind's locks and fork.  A child forked while another thread holds
   one of libunwind's locks finds it held forever, with its signals
   blocked.  libunwind takes them in two places:
   - in a capture, while it reads call frame information or makes the
     thread's cache of frames, and, through the dynamic loader's lock,
     while the first capture loads libunwind.  A fork waits for the
     captures under way (mp_callstack_fork), and a capture starting
     meanwhile gives the allocating call's position alone, which is
     rare enough;
   - when a thread that has captured exits.  unw_backtrace keeps a cache
     of frames per thread, which a thread-specific data destructor of
     libunwind's gives back to its pool of caches, under the pool's lock
     (libunwind 1.6: src/x86_64/Gtrace.c, trace_cache_free;
     src/mi/mempool.c).  A child
     forked meanwhile waits for that lock at its first capture in a
     thread without a cache, or at the exit of a thread with one.  That
     destructor puts itself off to its last round (glibc runs
     PTHREAD_DESTRUCTOR_ITERATIONS, 4), so that other destructors may
     still capture.  So a thread that has captured holds an exit slot
     from the second round of its destructors until it is gone, and a
     fork takes every slot, which waits for the exits under way.  Not
     from the first round: the runtime's own exit (thread.c) and the
     program's destructors run in it, and may wait for a lock that the
     fork holds (Boehm's, to unregister the thread); later rounds run
     only the destructors that set their value again, like libunwind's.
     A slot is a robust mutex: once its thread is gone, after everything
     it ran, the kernel hands it to the next locker (EOWNERDEAD).

   Both waits are bounded: a capture may be interrupted by a signal
   handler that allocates, and waits for the fork to release the
   runtime's locks; a destructor of the program's may do the same in an
   exiting thread.  */

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <libunwind.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include "callstack.h"
#include "config.h"
#include "dynlibs.h"
#include "guest.h"
#include "internal.h"
#include "ownlibs.h"
#include "symbols.h"

typedef int (*backtrace_fn) (void **, int);

/* A loaded object: its link map (0: none), and the addresses it spans
   if known (START == END otherwise).  */
struct object
{
  uintptr_t map, start, end;
};

/* Set once by find_unwinder, read-only after: the unwinder, the entry
   point (_start), and the objects of the executable and of libc (map 0
   if not found), which are never unloaded.  */
static backtrace_fn unwinder;
static uintptr_t entry;
static struct object executable, libc;
/* Whether find_unwinder has run: 0 not yet, 1 running in some thread,
   2 done.  Not a pthread_once: a capture must not wait for ever for the
   thread loading libunwind, which may itself wait, in dlopen, for the
   dynamic loader's lock that the capturing thread holds (an allocation
   in a library's constructor during a dlopen, or the loader's own).  It
   waits UNWINDER_WAIT seconds at most, loading takes a fraction of a
   millisecond; then it gives the allocating call's position alone, as a
   capture during a fork does.  */
static atomic_int unwinder_state;
#define UNWINDER_WAIT 1

static struct object object_of (uintptr_t addr);

/* How long a fork waits for libunwind's locks, in seconds.  */
#define FORK_WAIT 1

/* ---- exit slots ------------------------------------------------------- */

/* Room for the threads in the last rounds of their exit at once; more
   wait for a slot (hold_exit_slot).  */
#define EXIT_SLOTS 64

/* Robust error-checking mutexes, each free, or held by an exiting
   thread that has captured, or by the fork under way.  Made once
   libunwind is loaded (find_unwinder sets slots_made after), made again
   in a child.  */
static pthread_mutex_t exit_slots[EXIT_SLOTS];
static atomic_int slots_made;

/* The slots that the fork under way holds: written by its prepare
   handler, read by its parent handler.  The runtime's other locks, taken
   before, keep other forks out.  */
static unsigned char fork_holds[EXIT_SLOTS];

/* Set in a thread by its first capture, with the round of its
   destructors as its value (1, then 2): exiting holds a slot in the
   second.  Made by find_unwinder, before slots_made is set.  */
static pthread_key_t exit_key;

/* Set by this thread's first capture, which sets exit_key (if made).  */
static __thread int captured __attribute__ ((tls_model ("initial-exec")));

/* 0 if made: robust mutexes need the kernel's help, which glibc may
   have found missing.  */
static int
make_slots (void)
{
  pthread_mutexattr_t a;
  int r = pthread_mutexattr_init (&a);
  if (r != 0)
    return r;
  r = pthread_mutexattr_settype (&a, PTHREAD_MUTEX_ERRORCHECK);
  if (r == 0)
    r = pthread_mutexattr_setrobust (&a, PTHREAD_MUTEX_ROBUST);
  for (size_t i = 0; r == 0 && i < EXIT_SLOTS; i++)
    r = pthread_mutex_init (&exit_slots[i], &a);
  pthread_mutexattr_destroy (&a);
  return r;
}

/* R, the result of locking SLOT: 0 if the caller holds it now, the
   thread that held it being gone if need be.  */
static int
held (pthread_mutex_t *slot, int r)
{
  return r == EOWNERDEAD ? pthread_mutex_consistent (slot) : r;
}

/* Hold a slot until this thread is gone.  */
static void
hold_exit_slot (void)
{
  for (;;)
    {
      for (size_t i = 0; i < EXIT_SLOTS; i++)
        if (held (&exit_slots[i], pthread_mutex_trylock (&exit_slots[i])) == 0)
          return;
      sched_yield ();           /* a fork holds them all, or other exits */
    }
}

/* exit_key's destructor: ROUND is its value.  */
static void
exiting (void *round)
{
  if ((uintptr_t) round == 1)
    pthread_setspecific (exit_key, (void *) 2);
  else
    hold_exit_slot ();
}

static void
make_exit_key (void)
{
  if (make_slots () != 0 || pthread_key_create (&exit_key, exiting) != 0)
    {
      mp_warn ("cannot watch thread exits; a child forked while threads "
               "exit may hang in libunwind");
      return;
    }
  atomic_store (&slots_made, 1);
}

/* This thread has a cache of libunwind's now, which its exit frees.  */
static void
watch_exit (void)
{
  captured = 1;
  if (atomic_load (&slots_made))
    pthread_setspecific (exit_key, (void *) 1);
}

/* libunwind keeps the procedures a program registers at run time
   (_U_dyn_register, a JIT's) on a list in its own data, out of Boehm's
   roots as the runtime loaded it (ownlibs.c): scanned again once the
   program has put one there.  */
static void
watch_dynamic_list (void *h)
{
  unw_word_t (*list_addr) (void)
    = (unw_word_t (*) (void)) dlsym (h, "_U_dyn_info_list_addr");
  if (list_addr != NULL)
    {
      unw_dyn_info_list_t *list = (unw_dyn_info_list_t *) list_addr ();
      mp_own_watch ((void *const *) &list->first);
    }
}

static void
find_unwinder (void)
{
  /* libc, shared, with its handle kept (dynlibs.c): this runs inside a
     capture, and a dlclose would take unload.c's path to the sites'
     lock, which a fork in its PREPARE step holds while it waits for the
     captures to end.  None in a static executable, whose backtrace is
     libc.a's, over libgcc's unwinder linked in, without dlopen (README
     says so).  */
  void *c = mp_libc_handle ();
  void *h = c ? mp_own_dlopen ("libunwind.so.8", RTLD_NOW | RTLD_LOCAL)
                : NULL;
  unwinder = h ? (backtrace_fn) dlsym (h, "unw_backtrace") : NULL;
  if (unwinder != NULL)
    {
      make_exit_key ();
      watch_dynamic_list (h);
    }
  else if (c == NULL)
    unwinder = backtrace;
  else
    {
      mp_warn ("libunwind is not loadable; call stacks come from glibc's "
               "backtrace, which is slower");
      unwinder = backtrace;
    }
  entry = getauxval (AT_ENTRY);
  executable = object_of (entry);
  /* An address inside libc, its dynamic section: a function's address
     may be a PLT entry of the executable's.  */
  struct link_map *lm;
  if (c != NULL && dlinfo (c, RTLD_DI_LINKMAP, &lm) == 0)
    libc = object_of ((uintptr_t) lm->l_ld);
}

/* ---- fork ------------------------------------------------------------- */

/* Set by the handlers of the fork under way, which are the only ones
   running: the runtime's other locks, taken first, keep out the rest.  */
static atomic_int forking;

/* The captures under way in all threads.  */
static atomic_long capturing;

static int
passed (const struct timespec *end)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return now.tv_sec > end->tv_sec
         || (now.tv_sec == end->tv_sec && now.tv_nsec >= end->tv_nsec);
}

/* Wait for the captures under way, until END.  */
static void
wait_for_captures (const struct timespec *end)
{
  while (atomic_load (&capturing) > 0)
    {
      sched_yield ();
      if (passed (end))
        {
          mp_warn ("fork: a call stack capture is still under way; the "
                   "child may hang in libunwind");
          return;
        }
    }
}

/* Take every exit slot, which waits until END for the exits under way.
   A slot this thread holds itself (it forks from a destructor of its
   own exit) stays its own.  */
static void
take_exit_slots (const struct timespec *end)
{
  int late = 0;
  for (size_t i = 0; i < EXIT_SLOTS; i++)
    {
      pthread_mutex_t *slot = &exit_slots[i];
      int r = held (slot, pthread_mutex_clocklock (slot, CLOCK_MONOTONIC, end));
      fork_holds[i] = r == 0;
      late |= r == ETIMEDOUT;
    }
  if (late)
    mp_warn ("fork: a thread that captured call stacks is still exiting; "
             "the child may hang in libunwind");
}

static void
release_exit_slots (void)
{
  for (size_t i = 0; i < EXIT_SLOTS; i++)
    if (fork_holds[i])
      pthread_mutex_unlock (&exit_slots[i]);
}

/* The slots exist once libunwind is loaded, which a capture does: after
   the captures under way, none can start loading it.  */
void
mp_callstack_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_PREPARE)
    {
      struct timespec end;
      clock_gettime (CLOCK_MONOTONIC, &end);
      end.tv_sec += FORK_WAIT;
      atomic_store (&forking, 1);
      wait_for_captures (&end);
      if (atomic_load (&slots_made))
        take_exit_slots (&end);
      else
        memset (fork_holds, 0, sizeof fork_holds);
      return;
    }
  if (step == MP_FORK_PARENT)
    release_exit_slots ();
  else
    {
      /* A thread that had counted itself in, found the flag, and was
         about to count itself out is not in the child; nor are the
         threads that held slots, and this one's holds did not follow it
         (its thread ID changed).  */
      atomic_store (&capturing, 0);
      if (atomic_load (&slots_made))
        make_slots ();
    }
  atomic_store (&forking, 0);
}

/* Whether the unwinder is loaded, loading it if no thread is: see
   unwinder_state.  */
static int
unwinder_ready (void)
{
  int s = atomic_load_explicit (&unwinder_state, memory_order_acquire);
  if (s == 0 && atomic_compare_exchange_strong (&unwinder_state, &s, 1))
    {
      find_unwinder ();
      atomic_store_explicit (&unwinder_state, 2, memory_order_release);
      return 1;
    }
  if (s == 1)
    {
      struct timespec end;
      clock_gettime (CLOCK_MONOTONIC, &end);
      end.tv_sec += UNWINDER_WAIT;
      while ((s = atomic_load_explicit (&unwinder_state,
                                        memory_order_acquire)) == 1
             && !passed (&end))
        sched_yield ();
    }
  return s == 2;
}

/* Loading libunwind counts as a capture, which a fork waits for: a
   child forked meanwhile would find it half loaded, by a thread it does
   not have.  */
static int
unwind (uintptr_t *buf, size_t max)
{
  mp_quiet_begin ();             /* dlopen's and libunwind's allocations */
  int n = 0;
  atomic_fetch_add (&capturing, 1);
  if (!atomic_load (&forking) && unwinder_ready ())
    {
      n = unwinder ((void **) buf, (int) max);
      if (!captured)
        watch_exit ();
    }
  atomic_fetch_sub (&capturing, 1);
  mp_quiet_end ();
  return n;
}

/* The object holding ADDR.  glibc's _dl_find_object is made for
   unwinders: a lookup without a lock, in tens of nanoseconds; dladdr,
   before glibc 2.35, searches symbols too, and gives no span.  */
static struct object
object_of (uintptr_t addr)
{
#ifdef DLFO_STRUCT_HAS_EH_DBASE
  struct dl_find_object o;
  if (_dl_find_object ((void *) addr, &o) == 0)
    return (struct object) { (uintptr_t) o.dlfo_link_map,
                             (uintptr_t) o.dlfo_map_start,
                             (uintptr_t) o.dlfo_map_end };
#else
  Dl_info info;
  if (dladdr ((void *) addr, &info))
    return (struct object) { (uintptr_t) info.dli_fbase, 0, 0 };
#endif
  return (struct object) { 0, 0, 0 };
}

/* The link map of the object holding ADDR, or 0.  The executable and
   libc, which hold most of the frames a capture looks at, are known by
   their spans without a lookup (4 a sample on bt-malloc): the same
   answer as _dl_find_object's, whose own are these spans, as neither
   object is ever unloaded.  */
static uintptr_t
map_of (uintptr_t addr)
{
  if (addr - executable.start < executable.end - executable.start)
    return executable.map;
  if (addr - libc.start < libc.end - libc.start)
    return libc.map;
  return object_of (addr).map;
}

/* The entry point's code, _start, is a few instructions: its call of
   __libc_start_main returns within these bytes of it.  */
#define ENTRY_CODE 64

/* The N frames of stack BUF, whole, less those outside main or a
   thread's start routine (see above); the allocating frame, at RA,
   stays.  */
static size_t
start_up_cut (const uintptr_t *buf, size_t n, uintptr_t ra)
{
  if (n > 1 && buf[n - 1] - 1 - entry < ENTRY_CODE)
    n--;
  uintptr_t site = map_of (ra - 1);
  while (n > 1)
    {
      uintptr_t o = map_of (buf[n - 1] - 1);
      if (o == executable.map || (o == site && o != libc.map))
        break;
      n--;
    }
  return n;
}

size_t
mp_callstack_capture (uintptr_t ra, uintptr_t *buf, size_t depth)
{
  size_t max = depth + MP_CALLSTACK_SLACK, n = 0;
  int got = depth > 0 ? unwind (buf, max) : 0;
  for (int i = 0; i < got && n == 0; i++)
    if (buf[i] == ra)
      {
        n = (size_t) (got - i);
        memmove (buf, buf + i, n * sizeof *buf);
      }
  if (n == 0)
    {
      /* The unwinder lost its way inside the runtime: the allocating
         call's position is still known.  */
      buf[0] = ra;
      return depth > 0;
    }
  if ((size_t) got < max && !mp_config.past_main)
    n = start_up_cut (buf, n, ra);
  if (n > depth)
    {
      n = depth;
      buf[n++] = MP_STACK_TRUNCATED;
    }
  return n;
}

/* The frames of CS, symbolised on first use, with a guest language's
   among them (guest.c).  */
static const struct mp_frame *
frames (const mp_callstack *ccs)
{
  mp_callstack *cs = (mp_callstack *) ccs;
  if (cs->frames != NULL || cs->limit == 0 || cs->n_ras == 0)
    return cs->frames;
  const uintptr_t *ras = cs->ras;
  size_t n = cs->n_ras;
  uintptr_t *arranged = NULL;
  if (mp_guest_in (ras, n) && (arranged = malloc (n * sizeof *ras)) != NULL)
    {
      n = mp_guest_arrange (ras, n, arranged);
      ras = arranged;
    }
  cs->frames = malloc ((cs->limit + n) * sizeof *cs->frames);
  if (cs->frames != NULL)
    cs->n_frames = mp_symbolise (ras, n, cs->frames, cs->limit);
  free (arranged);
  return cs->frames;
}

void
mp_callstack_release (mp_callstack *cs)
{
  free (cs->frames);
  cs->frames = NULL;
}

MP_API size_t
mp_callstack_length (const mp_callstack *cs)
{
  return cs && frames (cs) ? cs->n_frames : 0;
}

MP_API int
mp_callstack_frame (const mp_callstack *cs, size_t i, struct mp_frame *out)
{
  if (out == NULL || i >= mp_callstack_length (cs))
    {
      errno = EINVAL;
      return -1;
    }
  *out = cs->frames[i];
  return 0;
}

MP_API void
mp_callstack_print (FILE *out, const mp_callstack *cs)
{
  size_t n = mp_callstack_length (cs);
  for (size_t i = 0; i < n; i++)
    {
      const struct mp_frame *f = &cs->frames[i];
      fprintf (out, "#%zu  %s", i, f->function);
      if (f->file)
        fprintf (out, " at %s:%u", f->file, f->line);
      fputs (f->inlined ? " (inlined)\n" : "\n", out);
    }
}
