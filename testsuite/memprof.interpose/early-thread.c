/* A thread started before any constructor, the runtime's included (from
   .preinit_array, which the dynamic linker runs first), allocates
   before the runtime has started: its first allocation starts it, and
   every one is counted, rewritten or not.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1" } */

#include <pthread.h>
#include "../lib/mptest.h"

void *(*volatile indirect) (size_t) = malloc;
void *volatile kept[20];
static pthread_t early;
static unsigned l_early;

static void *
allocate (void *arg)
{
  (void) arg;
  for (int i = 0; i < 10; i++)
    {
      kept[i] = malloc (100); l_early = __LINE__;
      kept[10 + i] = indirect (200);
    }
  return NULL;
}

static void
start_early (void)
{
  pthread_create (&early, NULL, allocate, NULL);
}

__attribute__ ((section (".preinit_array"), used))
static void (*const preinit) (void) = start_early;

/* The foreign sites in allocate: the indirect calls.  */
static int
indirect_site (const struct mp_site_info *i, void *data)
{
  if (i->not_rewritten && strcmp (i->function, "allocate") == 0)
    mpt_add_stats (data, &i->stats);
  return 0;
}

int
main (void)
{
  pthread_join (early, NULL);
  struct mpt_site s = SITE (l_early);
  CHECK_EQ (s.s.numAllocateOK, 10);
  CHECK_EQ (s.s.bytesAllocated, 1000);
  struct mp_alloc_stats f;
  memset (&f, 0, sizeof f);
  mp_site_foreach (indirect_site, &f);
  CHECK_EQ (f.numAllocateOK, 10);
  CHECK_EQ (f.bytesAllocated, 2000);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
