/* A toy interpreter with three procedures, each a guest site kept in
   the thread's running slot while it runs, and a frame provider.  The
   guest sites count every GC allocation made while they run, exactly,
   and totals leave them out.  Sampled call stacks show the procedures
   where their interpreter activations are, in the text report, pprof,
   folded stacks and JSON, and in the tracker's call stacks; threads
   memprof never saw before capture too.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=0.05,sections=stacks+sites,stacks=0,sites=0,pprof=guest.pb.gz,folded=guest.folded,json=guest.json" } */

#define GC_THREADS
#include <pthread.h>
#include <gc.h>
#include "../lib/mptest.h"

struct proc
{
  const char *name;
  unsigned line;
  const struct mp_vm_site *site;
};
static struct proc procs[3] = { { "outer", 1 }, { "middle", 5 },
				{ "inner", 9 } };

/* The interpreter's own stack of procedures: one per activation of
   `interp', the entry function.  */
#define MPT_GUEST_PROCS 3
#define MPT_GUEST_NAME(p) procs[p].name
#define MPT_GUEST_LINE(p) procs[p].line
#include "../lib/mpguest.h"

/* What the tracker's call stacks must hold, by where outer and the
   first interp are (-1: not there): MEMPROF's vm_frames.  */
#ifndef EXPECTED
# define EXPECTED(outer, interp) ((outer) > (interp) && (interp) >= 0)
#endif
void *volatile sink;
static _Atomic unsigned long guest_stacks, tracked;

/* Runs procedure P: allocates 16 words' worth, and calls the next.  */
__attribute__ ((noinline)) static void *
interp (int p)
{
  const struct mp_vm_site **running = mp_vm_running ();
  const struct mp_vm_site *caller = *running;
  mpt_shadow[mpt_depth++] = (uintptr_t) p;
  *running = procs[p].site;
  void *r = GC_MALLOC (128);
  if (p < 2)
    sink = interp (p + 1);
  *running = caller;
  mpt_depth--;
  return r;
}

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  struct mp_frame f;
  int outer = -1, interp_at = -1;
  for (size_t i = 0; mp_callstack_frame (a->callstack, i, &f) == 0; i++)
    {
      if (strcmp (f.function, "outer") == 0 && f.line == 1)
	outer = (int) i;
      if (strcmp (f.function, "interp") == 0 && interp_at < 0)
	interp_at = (int) i;
    }
  tracked++;
  if (EXPECTED (outer, interp_at))
    guest_stacks++;
  return NULL;
}

static void *
worker (void *arg)
{
  (void) arg;
  for (int i = 0; i < 1000; i++)
    sink = interp (0);
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  for (int i = 0; i < 3; i++)
    procs[i].site = mp_vm_site (procs[i].name, "toy.scm", procs[i].line,
				MP_VM_PROCEDURE);
  struct mp_frame_provider fp = { mpt_capture, mpt_symbolise,
				  (const void *) interp, NULL };
  CHECK_EQ (mp_set_frame_provider (&fp), 0);
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_minor = on_alloc;
  CHECK_EQ (mp_memprof_start (0.05, 64, &tr), 0);
  struct mp_alloc_stats before, after;
  mp_alloc_stats (&before);
  pthread_t th[4];
  for (long i = 0; i < 4; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, worker, (void *) i), 0);
  for (int i = 0; i < 4; i++)
    pthread_join (th[i], NULL);
  mp_alloc_stats (&after);
  CHECK_EQ (after.numAllocate - before.numAllocate, 4 * 1000 * 3);
  for (int i = 0; i < 3; i++)
    {
      struct mpt_site s = mpt_site_at ("toy.scm", procs[i].line, 0);
      CHECK_EQ (s.s.numAllocate, 4000);
      CHECK_EQ (s.s.bytesAllocated, 4000 * 128);
      CHECK_EQ (s.minor_words, 4000 * 16);
      CHECK (strcmp (s.callee, "(procedure)") == 0);
    }
  CHECK (tracked > 0);
  CHECK_EQ (guest_stacks, tracked);
  mp_memprof_stop ();
  return mpt_done ();
}

/* The procedures show as the callers of the interpreter activations
   that run them: inner's allocation in interp, called from inner, run
   by interp, called from middle...  */
/* { dg-output "ok\n.*" } */
/* { dg-output "== allocation sites: .*\ntoy.scm\\(1\\): \\\[numAllocate:4000, numAllocateOK:4000, bytesAllocated:512000\\\]  \\(procedure\\) in outer\n.*" } */
/* { dg-output "    interp\[^\n\]*\n    inner at toy.scm:9\n    interp\[^\n\]*\n    middle at toy.scm:5\n    interp\[^\n\]*\n    outer at toy.scm:1\n    worker" } */
/* { dg-final { scan-file guest.folded "(^|\n)\[^\n\]*;outer;interp;middle;interp;inner;interp \[0-9\]+\n" } } */
/* { dg-final { scan-file guest.json "\"function\": *\"middle\", *\"file\": *\"toy.scm\", *\"line\": *5" } } */
