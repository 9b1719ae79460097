/* The fast path generated code runs inline (memprof.h's mp_vm_young):
   four threads allocate young objects through a path the plugin cannot
   see, as JIT code does, and count them with the fast path at a site of
   generated code.  The counts at that site are exact; the objects held
   across a collection are promoted, exactly; the sampler's countdown
   gives each word its chance: the samples the tracker sees are within
   4 sigma of Binomial (words, rate), each with the allocating thread's
   call stack.  Bad input: another ABI, a site of another kind.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#define GC_THREADS
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <gc.h>
#include <gc/gc_inline.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 20000
#define WORDS 4
#define KEEP 64
#define RATE 0.01

static void *(*volatile generated_alloc) (size_t, int) = GC_malloc_kind;
static const struct mp_vm_site *site;
static void **kept[THREADS];
static _Atomic unsigned long samples, sampled_blocks, bad_stacks;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  samples += a->n_samples;
  sampled_blocks++;
  struct mp_frame f;
  int found = 0;
  for (size_t i = 0; mp_callstack_frame (a->callstack, i, &f) == 0; i++)
    found |= strcmp (f.function, "worker") == 0;
  if (!found || a->size != WORDS)
    bad_stacks++;
  return NULL;
}

static void *
worker (void *arg)
{
  int id = (int) (long) arg;
  struct mp_vm_thread *vt = mp_vm_thread (MP_VM_ABI);
  ptrdiff_t offset = mp_vm_site_offset (site);
  const volatile uint64_t *epoch = mp_vm_epoch ();
  for (int i = 0; i < N; i++)
    {
      void *p = generated_alloc (WORDS * sizeof (void *), GC_I_NORMAL);
      mp_vm_young (vt, offset, epoch, p, WORDS, MP_SOURCE_NORMAL, site);
      if (i < KEEP)
	kept[id][i] = p;
    }
  return NULL;
}

static int
jit_site (const struct mp_site_info *i, void *data)
{
  if (strcmp (i->function, "generated") == 0)
    *(struct mp_site_info *) data = *i;
  return 0;
}

int
main (void)
{
  GC_INIT ();
  CHECK (mp_vm_thread (MP_VM_ABI + 1) == NULL && errno == EINVAL);
  const struct mp_vm_site *proc = mp_vm_site ("p", "p.scm", 1,
					      MP_VM_PROCEDURE);
  CHECK (proc != NULL);
  CHECK (mp_vm_site_offset (proc) == -1 && errno == EINVAL);
  site = mp_vm_site ("generated", "jit.scm", 7, MP_VM_CODE);
  for (int i = 0; i < THREADS; i++)
    kept[i] = GC_MALLOC_UNCOLLECTABLE (KEEP * sizeof (void *));
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_minor = on_alloc;
  CHECK_EQ (mp_memprof_start (RATE, 32, &tr), 0);

  double minor0, promoted0, major0, minor1, promoted1, major1;
  mp_counters (&minor0, &promoted0, &major0);
  GC_disable ();
  pthread_t th[THREADS];
  for (long i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, worker, (void *) i), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join (th[i], NULL);
  GC_enable ();
  mp_memprof_stop ();

  const unsigned long n = THREADS * N;
  struct mp_site_info info;
  memset (&info, 0, sizeof info);
  mp_site_foreach (jit_site, &info);
  CHECK_EQ (info.stats.numAllocate, n);
  CHECK_EQ (info.stats.numAllocateOK, n);
  CHECK_EQ (info.stats.bytesAllocated, n * WORDS * 8);
  CHECK_EQ (info.minor_words, n * WORDS);
  CHECK (strcmp (info.file, "jit.scm") == 0 && info.line == 7);
  mp_counters (&minor1, &promoted1, &major1);
  CHECK_EQ (minor1 - minor0, n * WORDS);

  double words = (double) n * WORDS;
  double sigma = sqrt (words * RATE * (1 - RATE));
  if (fabs ((double) samples - words * RATE) > 4 * sigma)
    fprintf (stderr, "FAIL samples %lu, expected %.0f +- %.0f\n", samples,
	     words * RATE, 4 * sigma), mpt_failures++;
  CHECK_EQ (bad_stacks, 0);
  CHECK (sampled_blocks > 0);

  /* The kept objects are promoted; the collector being conservative, a
     stale copy of a pointer (in a register the threads' exit left, say)
     may keep a few more.  */
  collect ();
  mp_counters (&minor1, &promoted1, &major1);
  CHECK (promoted1 - promoted0 >= THREADS * KEEP * WORDS);
  CHECK (promoted1 - promoted0 <= THREADS * (KEEP + 4) * WORDS);
  return mpt_done ();
}

/* { dg-output "ok\n" } */
