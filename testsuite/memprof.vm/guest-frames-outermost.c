/* Guest frames whose interpreter activation is not on the captured C
   stack go outermost, as the callers of every C frame captured: when
   callstack_size cuts the C stack below the entry function (`deep'),
   and when the allocation runs on a C path that is not under it
   (`hook', run by a C function of the VM's that is not the entry).  So
   in the text report, folded stacks, JSON, pprof, the HTML flame graphs
   and the tracker's call stacks, from two threads; and the guest frames
   are not counted against callstack_size.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,callstack_size=4,sections=stacks,stacks=0,pprof=outer.pb.gz,folded=outer.folded,json=outer.json,html=outer.html" } */

#define GC_THREADS
#include <pthread.h>
#include <gc.h>
#include "../lib/mptest.h"

#define N 1000

/* The VM's own stack of procedures.  */
static const char *const names[3] = { "outer", "inner", "hook" };
#define MPT_GUEST_PROCS 3
#define MPT_GUEST_NAME(p) names[p]
#define MPT_GUEST_LINE(p) (1 + 4 * (unsigned) (p))
#include "../lib/mpguest.h"

void *volatile sink;
static _Atomic unsigned long tracked, outermost;

/* Three C frames between the entry function and the allocation, so
   that callstack_size=4 leaves the entry out.  */
__attribute__ ((noipa)) static void *
leaf_b (void)
{
  return GC_MALLOC (32);
}

__attribute__ ((noipa)) static void *
step1 (void)
{
  void *r = leaf_b ();
  sink = r;
  return r;
}

__attribute__ ((noipa)) static void *
step2 (void)
{
  void *r = step1 ();
  sink = r;
  return r;
}

__attribute__ ((noipa)) static void *
step3 (void)
{
  void *r = step2 ();
  sink = r;
  return r;
}

/* The entry function: runs procedure P; outer calls inner, whose body
   goes deep into C.  */
__attribute__ ((noipa)) static void *
interp (int p)
{
  mpt_shadow[mpt_depth++] = (uintptr_t) p;
  void *r = p == 0 ? interp (1) : step3 ();
  mpt_depth--;
  return r;
}

__attribute__ ((noipa)) static void *
leaf_a (void)
{
  return GC_MALLOC (16);
}

/* Another way into guest code, which the VM did not register.  */
__attribute__ ((noipa)) static void *
run_hook (void)
{
  mpt_shadow[mpt_depth++] = 2;
  void *r = leaf_a ();
  mpt_depth--;
  return r;
}

/* A's call stack reads leaf_a or leaf_b first, then C frames only, then
   the guest frames only, ending with outer or hook.  */
static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  struct mp_frame f;
  size_t n = mp_callstack_length (a->callstack), first_guest = n;
  tracked++;
  if (n == 0)
    return NULL;
  for (size_t i = 0; mp_callstack_frame (a->callstack, i, &f) == 0; i++)
    {
      int guest = f.file && strcmp (f.file, "toy.scm") == 0;
      if (guest && first_guest == n)
	first_guest = i;
      if (!guest && first_guest < n)
	first_guest = 0;		/* a C frame outside a guest one */
    }
  mp_callstack_frame (a->callstack, 0, &f);
  int leaf = strncmp (f.function, "leaf_", 5) == 0;
  mp_callstack_frame (a->callstack, n - 1, &f);
  int last = strcmp (f.function, "outer") == 0
	     || strcmp (f.function, "hook") == 0;
  if (leaf && last && first_guest > 0 && first_guest < n)
    outermost++;
  return NULL;
}

static void *
worker (void *arg)
{
  (void) arg;
  for (int i = 0; i < N; i++)
    {
      sink = interp (0);
      sink = run_hook ();
    }
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  struct mp_frame_provider fp = { mpt_capture, mpt_symbolise,
				  (const void *) interp, NULL };
  CHECK_EQ (mp_set_frame_provider (&fp), 0);
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_minor = on_alloc;
  tr.alloc_major = on_alloc;
  CHECK_EQ (mp_memprof_start (1, 4, &tr), 0);
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, worker, NULL), 0);
  for (int i = 0; i < 2; i++)
    pthread_join (th[i], NULL);
  mp_memprof_stop ();
  CHECK_EQ (tracked, 2 * 2 * N);
  CHECK_EQ (outermost, tracked);
  return mpt_done ();
}

/* The text report: the cut stack, then its two guest frames, then the
   mark of the cut, outermost (the C frames it left out are the guest
   frames' callers); the hook's C frames, from the thread's start
   routine, where stacks stop, then the hook.  */
/* { dg-output "ok\n.*" } */
/* { dg-output "\n64000 bytes, 8000 samples, \[^\n\]*\n    leaf_b\[^\n\]*\n    step1\[^\n\]*\n    step2\[^\n\]*\n    step3\[^\n\]*\n    inner at toy.scm:5\n    outer at toy.scm:1\n    \\(truncated\\)\n" } */
/* { dg-output "32000 bytes, 4000 samples, \[^\n\]*\n    leaf_a\[^\n\]*\n    run_hook\[^\n\]*\n    worker\[^\n\]*\n    hook at toy.scm:9\n" } */
/* Folded stacks, outermost first.  */
/* { dg-final { scan-file outer.folded "^\\(truncated\\);outer;inner;step3;step2;step1;leaf_b 64000$" } } */
/* { dg-final { scan-file outer.folded "^hook;worker;run_hook;leaf_a 32000$" } } */
/* JSON, innermost first.  */
/* { dg-final { scan-json outer.json {.frames as $f | .stacks[] | [.frames[] | $f[.].function] | join(";")} "^leaf_b;step1;step2;step3;inner;outer;\\(truncated\\)$" } } */
/* { dg-final { scan-json outer.json {.frames as $f | .stacks[] | [.frames[] | $f[.].function] | join(";")} "^leaf_a;run_hook;worker;hook$" } } */
/* pprof.  */
/* { dg-final { scan-pprof outer.pb.gz "-traces" " leaf_b\n +step1\n +step2\n +step3\n +inner\n +outer\n +\\(truncated\\)\n" } } */
/* { dg-final { scan-pprof outer.pb.gz "-traces" " leaf_a\n +run_hook\n +worker\n +hook\n" } } */
/* The HTML flame graphs draw the JSON's stacks.  */
/* { dg-final { scan-html-json outer.html outer.json } } */
