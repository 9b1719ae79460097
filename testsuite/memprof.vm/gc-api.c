/* Boehm's allocation API beyond gc.h's macros, as families: each call
   is one allocation per object handed to the program, at its line,
   exactly, with the words of its size and kind; a list from
   GC_malloc_many or GC_generic_malloc_many counts each of its objects at
   the call.  Four threads do the same at once, and the sums are
   exact.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#define GC_THREADS
#include <pthread.h>
#include <gc.h>
#include <gc/gc_inline.h>
#include <gc/gc_mark.h>
#include <gc/gc_typed.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 250

void *volatile sink;
static GC_descr descr;
static unsigned l_kind, l_kind_atomic, l_global, l_generic, l_generic_iop,
  l_generic_unc, l_typed, l_typed_iop, l_calloc_typed, l_many, l_gmany,
  l_memalign, l_posix;
static unsigned long many_objects[THREADS], gmany_objects[THREADS];

static unsigned long
length (void *list)
{
  unsigned long n = 0;
  for (void *p = list; p; p = GC_NEXT (p))
    n++;
  return n;
}

static void *
worker (void *arg)
{
  int id = (int) (long) arg;
  for (int i = 0; i < N; i++)
    {
      sink = GC_malloc_kind (24, GC_I_NORMAL); l_kind = __LINE__;
      sink = GC_malloc_kind (40, GC_I_PTRFREE); l_kind_atomic = __LINE__;
      sink = GC_malloc_kind_global (3000, GC_I_NORMAL); l_global = __LINE__;
      sink = GC_generic_malloc (56, GC_I_NORMAL); l_generic = __LINE__;
      sink = GC_generic_malloc_ignore_off_page (64, GC_I_PTRFREE); l_generic_iop = __LINE__;
      void *u = GC_generic_malloc_uncollectable (32, 2); l_generic_unc = __LINE__;
      GC_free (u);
      sink = GC_malloc_explicitly_typed (48, descr); l_typed = __LINE__;
      sink = GC_malloc_explicitly_typed_ignore_off_page (80, descr); l_typed_iop = __LINE__;
      sink = GC_calloc_explicitly_typed (3, 16, descr); l_calloc_typed = __LINE__;
      if (i % 50 == 0)
	{
	  void *l = GC_malloc_many (32); l_many = __LINE__;
	  many_objects[id] += length (l);
	  void *g = NULL;
	  GC_generic_malloc_many (48, GC_I_PTRFREE, &g); l_gmany = __LINE__;
	  gmany_objects[id] += length (g);
	}
      void *a = GC_memalign (64, 100); l_memalign = __LINE__;
      CHECK (((unsigned long) a & 63) == 0);	/* not sink: the other */
      sink = a;					/* threads write it too */
      void *p = NULL;
      CHECK_EQ (GC_posix_memalign (&p, 128, 72), 0); l_posix = __LINE__;
      CHECK (((unsigned long) p & 127) == 0);
      sink = p;
    }
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  GC_word bitmap[1] = { 0 };
  GC_set_bit (bitmap, 0);
  descr = GC_make_descriptor (bitmap, 1);
  pthread_t th[THREADS];
  for (long i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, worker, (void *) i), 0);
  unsigned long many = 0, gmany = 0;
  for (int i = 0; i < THREADS; i++)
    {
      pthread_join (th[i], NULL);
      many += many_objects[i];
      gmany += gmany_objects[i];
    }
  const unsigned long n = THREADS * N;
  CHECK_SITE (l_kind, "GC_malloc_kind", n, n * 24, n * 3, 0);
  CHECK_SITE (l_kind_atomic, "GC_malloc_kind", n, n * 40, n * 5, 0);
  CHECK_SITE (l_global, "GC_malloc_kind_global", n, n * 3000, 0, n * 375);
  CHECK_SITE (l_generic, "GC_generic_malloc", n, n * 56, n * 7, 0);
  CHECK_SITE (l_generic_iop, "GC_generic_malloc_ignore_off_page", n, n * 64,
	      n * 8, 0);
  CHECK_SITE (l_generic_unc, "GC_generic_malloc_uncollectable", n, n * 32, 0,
	      n * 4);
  CHECK_SITE (l_typed, "GC_malloc_explicitly_typed", n, n * 48, n * 6, 0);
  CHECK_SITE (l_typed_iop, "GC_malloc_explicitly_typed_ignore_off_page", n,
	      n * 80, n * 10, 0);
  CHECK_SITE (l_calloc_typed, "GC_calloc_explicitly_typed", n, n * 48,
	      n * 6, 0);
  CHECK (many >= THREADS * (N / 50));
  CHECK_SITE (l_many, "GC_malloc_many", many, many * 32, many * 4, 0);
  CHECK (gmany >= THREADS * (N / 50));
  CHECK_SITE (l_gmany, "GC_generic_malloc_many", gmany, gmany * 48,
	      gmany * 6, 0);
  CHECK_SITE (l_memalign, "GC_memalign", n, n * 100, n * 13, 0);
  CHECK_SITE (l_posix, "GC_posix_memalign", n, n * 72, n * 9, 0);
  return mpt_done ();
}

/* { dg-output "ok\n" } */
