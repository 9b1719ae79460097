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
   the allocating call.  Frames of libc further in, such as qsort's
   below a comparison function that allocates, stay.  MEMPROF's
   past_main keeps them all.  Then the depth applies, and a stack that
   has more frames is cut and marked (callstack.h).

   libunwind takes a lock of its own while it reads call frame
   information, and a child forked meanwhile would find it held forever,
   with its signals blocked; so would one forked while the first capture
   loads libunwind, holding the dynamic loader's lock.  So a fork waits
   for the captures under way (mp_callstack_fork), and a capture
   starting meanwhile gives the allocating call's position alone, which
   is rare enough.  The wait is bounded: a capture may be interrupted by
   a signal handler that allocates, and that waits for the fork to
   release the runtime's locks.  */

#include <dlfcn.h>
#include <execinfo.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include "callstack.h"
#include "config.h"
#include "guest.h"
#include "internal.h"
#include "symbols.h"

typedef int (*backtrace_fn) (void **, int);

/* Set once by find_unwinder, read-only after: the unwinder, the entry
   point (_start), and the object (its link map) of the executable.  */
static backtrace_fn unwinder;
static uintptr_t entry, executable;
static pthread_once_t unwinder_once = PTHREAD_ONCE_INIT;

static uintptr_t object_of (uintptr_t addr);

static void
find_unwinder (void)
{
  void *h = dlopen ("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  unwinder = h ? (backtrace_fn) dlsym (h, "unw_backtrace") : NULL;
  if (unwinder == NULL)
    {
      mp_warn ("libunwind is not loadable; call stacks come from glibc's "
               "backtrace, which is slower");
      unwinder = backtrace;
    }
  entry = getauxval (AT_ENTRY);
  executable = object_of (entry);
}

/* Set by the handlers of the fork under way, which are the only ones
   running: the runtime's other locks, taken first, keep out the rest.  */
static atomic_int forking;

/* The captures under way in all threads.  */
static atomic_long capturing;

/* Wait for the captures under way, for up to a second.  */
static void
wait_for_captures (void)
{
  double end = mp_uptime () + 1;
  while (atomic_load (&capturing) > 0)
    {
      sched_yield ();
      if (mp_uptime () > end)
        {
          mp_warn ("fork: a call stack capture is still under way; the "
                   "child may hang in libunwind");
          return;
        }
    }
}

void
mp_callstack_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_PREPARE)
    {
      atomic_store (&forking, 1);
      wait_for_captures ();
      return;
    }
  /* A thread that had counted itself in, found the flag, and was about
     to count itself out is not in the child.  */
  if (step == MP_FORK_CHILD)
    atomic_store (&capturing, 0);
  atomic_store (&forking, 0);
}

static int
unwind (uintptr_t *buf, size_t max)
{
  atomic_fetch_add (&capturing, 1);
  int n = 0;
  if (!atomic_load (&forking))
    {
      /* Loading libunwind counts as a capture: a child forked while
         dlopen held the loader's lock would find it held.  */
      pthread_once (&unwinder_once, find_unwinder);
      n = unwinder ((void **) buf, (int) max);
    }
  atomic_fetch_sub (&capturing, 1);
  return n;
}

/* The object holding ADDR (its link map), or 0.  glibc's
   _dl_find_object is made for unwinders: a lookup without a lock, in
   tens of nanoseconds; dladdr, before glibc 2.35, searches symbols too.  */
static uintptr_t
object_of (uintptr_t addr)
{
#ifdef DLFO_STRUCT_HAS_EH_DBASE
  struct dl_find_object o;
  return _dl_find_object ((void *) addr, &o) == 0
         ? (uintptr_t) o.dlfo_link_map : 0;
#else
  Dl_info info;
  return dladdr ((void *) addr, &info) ? (uintptr_t) info.dli_fbase : 0;
#endif
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
  uintptr_t site = object_of (ra - 1);
  while (n > 1)
    {
      uintptr_t o = object_of (buf[n - 1] - 1);
      if (o == executable || o == site)
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
  cs->frames = malloc (cs->limit * sizeof *cs->frames);
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
