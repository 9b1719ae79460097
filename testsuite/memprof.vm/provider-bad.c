/* A frame provider that misbehaves gets bounded, labelled frames, never
   a crash: CAPTURE returns more frames than asked, words of 2^56 and
   more, SYMBOLISE fails or gives no names.  A provider without its
   callbacks is refused.  Replacing the provider while another thread
   samples is safe, and the frames of the samples taken before stay
   named, although the old provider's data is gone.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=0.02,sections=stacks,stacks=0,callstack_size=8" } */

#define GC_THREADS
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static atomic_int stop;
static atomic_long allocated;	/* by the threads, to pace the switches */

static size_t
too_many (uintptr_t *frames, size_t max, void *data)
{
  (void) data;
  for (size_t i = 0; i < max; i++)
    frames[i] = i % 3 == 0 ? (uintptr_t) 1 << 60 : i;
  return max + 1000;		/* more than there is room for */
}

static int
no_names (uintptr_t w, struct mp_frame *out, void *data)
{
  (void) data;
  if (w % 3 == 1)
    return -1;
  out->function = NULL;		/* no name: shown as ?? */
  out->file = NULL;
  return 0;
}

/* The good provider's names live in DATA, freed once it is replaced.  */
static size_t
one_frame (uintptr_t *frames, size_t max, void *data)
{
  (void) data;
  if (max == 0)
    return 0;
  frames[0] = 42;
  return 1;
}

static int
named (uintptr_t w, struct mp_frame *out, void *data)
{
  out->function = (const char *) data;
  out->file = "bad.scm";
  out->line = (unsigned) w;
  return 0;
}

static void *
allocate (void *arg)
{
  (void) arg;
  while (!atomic_load (&stop))
    {
      sink = GC_MALLOC (64);
      atomic_fetch_add (&allocated, 1);
    }
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  struct mp_frame_provider p = { NULL, no_names, NULL, NULL };
  CHECK (mp_set_frame_provider (&p) == -1 && errno == EINVAL);
  p.capture = too_many;
  p.symbolise = NULL;
  CHECK (mp_set_frame_provider (&p) == -1 && errno == EINVAL);
  p.symbolise = no_names;
  CHECK_EQ (mp_set_frame_provider (&p), 0);
  for (int i = 0; i < 20000; i++)
    sink = GC_MALLOC (64);

  char *name = strdup ("good-procedure");
  struct mp_frame_provider good = { one_frame, named, NULL, name };
  CHECK_EQ (mp_set_frame_provider (&good), 0);
  for (int i = 0; i < 20000; i++)	/* samples under it, whatever the */
    sink = GC_MALLOC (64);		/* threads' timing below */
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, allocate, NULL), 0);
  /* Each provider stays until the threads have allocated 100 blocks
     under it (16 samples expected), however busy the machine: the good
     provider's frames cannot be missed by a scheduler that ran no
     thread in its window.  */
  for (int i = 0; i < 200; i++)
    {
      CHECK_EQ (mp_set_frame_provider (i % 2 ? &good : &p), 0);
      long start = atomic_load (&allocated);
      while (atomic_load (&allocated) - start < 100)
	sched_yield ();
    }
  CHECK_EQ (mp_set_frame_provider (NULL), 0);
  memset (name, 'x', strlen (name));	/* gone for the report */
  free (name);
  atomic_store (&stop, 1);
  for (int i = 0; i < 2; i++)
    pthread_join (th[i], NULL);
  return mpt_done ();
}

/* { dg-output "ok\n.*    \\?\\?\n.*    good-procedure at bad.scm:42\n" } */
