/* mp_finalise's order with many objects found unreachable together: the
   calls run in the reverse order of their mp_finalise calls, each after
   the program's own finaliser of its object.  Boehm runs the next
   object's finaliser from inside the allocations made in one, which
   must not run the calls before the outer one has queued its own
   (runtime/finalise.c).  N objects, each with a program finaliser and 2
   calls; every call runs once.

   Boehm is conservative, and its parallel marker leaves copies of its
   mark stack entries (an object's address, then its length) in the
   collecting thread's stack: a few objects found there stay alive
   through the next collections, their finalisers with them, until
   something overwrites those words.  So each collection is made with
   the stack cleared below it (collect), as many as it takes, up to a
   bound far above the one or two it needs.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <gc.h>
#include "../lib/mptest.h"

#define N 5000

void *objs[N];
static long seq_run[2 * N], gc_run[2 * N];
static int n_run, inversions, before_program;
static char program_ran[N], ran[2 * N];

static void
program (void *obj, void *data)
{
  (void) obj;
  program_ran[(long) data] = 1;
}

/* DATA: the call's sequence number, from 1, and its object's index.  */
static void
fin (void *obj, void *data)
{
  (void) obj;
  long seq = (long) data, i = (seq - 1) % N;
  before_program += !program_ran[i];
  ran[seq - 1]++;
  gc_run[n_run] = GC_get_gc_no ();
  seq_run[n_run] = seq;
  if (n_run > 0 && gc_run[n_run - 1] == gc_run[n_run]
      && seq_run[n_run - 1] < seq)
    inversions++;
  n_run++;
}

static void __attribute__ ((noinline))
make (void)
{
  for (long i = 0; i < N; i++)
    {
      objs[i] = GC_MALLOC (32);
      GC_register_finalizer (objs[i], program, (void *) i, NULL, NULL);
    }
  for (long r = 0; r < 2; r++)
    for (long i = 0; i < N; i++)
      mp_finalise (fin, objs[i], (void *) (r * N + i + 1));
  memset (objs, 0, sizeof objs);
}

int
main (void)
{
  GC_INIT ();
  make ();
  for (int k = 0; k < 100 && n_run < 2 * N; k++)
    {
      collect ();
      GC_invoke_finalizers ();
    }
  CHECK_EQ (n_run, 2 * N);
  int once = 0;
  for (int i = 0; i < 2 * N; i++)
    once += ran[i] == 1;
  CHECK_EQ (once, 2 * N);
  CHECK_EQ (inversions, 0);
  CHECK_EQ (before_program, 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
