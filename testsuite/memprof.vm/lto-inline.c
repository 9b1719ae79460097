/* With -flto the late pass runs at link time, in LTO's units, where a
   variable's initializer is read only when asked for.  What the early
   pass marked keeps its caller's place there too:
   - an allocator named by allocator= and inlined (a VM's free-list pop,
     as Guile's scm_inline_gc_alloc) counts each object once, at the
     line that called it, exactly (none at its own line);
   - a gc_inline.h pop in a `static inline' function inlined into two
     callers is one site per caller, at the macro's line, with that
     caller's inline chain.
   At -O0 nothing is inlined: the allocator's calls are bracketed where
   they are, and the pop is one site, in its own function.
   lto-inline-partition.c runs this with each symbol in its own LTO
   partition.  */
/* { dg-do run } */
/* { dg-require-effective-target lto } */
/* { dg-options "-std=gnu11 -flto -fplugin-arg-memprof-allocator=vm_alloc:gc" } */

#include <gc.h>
#include <gc/gc_inline.h>
#include "../lib/mptest.h"

/* The callee a pop's sites name: the macro as written.  */
#ifndef POP_CALLEE
#define POP_CALLEE "GC_MALLOC_WORDS"
#endif

#define N_PAIR 1000
#define N_TRIPLE 300

void *volatile sink;
static void *vm_lists[4];
static void *tiny_lists[GC_TINY_FREELISTS];
static unsigned l_pair, l_triple, l_pop, l_first, l_second;

/* Objects of IDX + 1 granules.  */
static inline void *
vm_alloc (int idx)
{
  void *head = vm_lists[idx];
  if (__builtin_expect (head == NULL, 0))
    {
      GC_generic_malloc_many ((idx + 1) * 16, GC_I_NORMAL, &vm_lists[idx]);
      head = vm_lists[idx];
    }
  vm_lists[idx] = *(void **) head;
  *(void **) head = NULL;
  return head;
}

__attribute__ ((noinline)) static void *
make_pair (void)
{
  l_pair = __LINE__; return vm_alloc (1);
}

__attribute__ ((noinline)) static void *
make_triple (void)
{
  l_triple = __LINE__; return vm_alloc (2);
}

static inline void *
cons (void)
{
  void *r;
  GC_MALLOC_WORDS (r, 2, tiny_lists); l_pop = __LINE__;
  return r;
}

__attribute__ ((noinline)) static void *
first (void)
{
  l_first = __LINE__; return cons ();
}

__attribute__ ((noinline)) static void *
second (void)
{
  l_second = __LINE__; return cons ();
}

int
main (void)
{
  GC_set_all_interior_pointers (0);	/* as gc_inline.h wants */
  GC_INIT ();
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  for (int i = 0; i < N_PAIR; i++)
    {
      sink = make_pair ();
      sink = first ();
    }
  for (int i = 0; i < N_TRIPLE; i++)
    {
      sink = make_triple ();
      sink = second ();
    }

  CHECK_SITE (l_pair, "vm_alloc", N_PAIR, N_PAIR * 32, N_PAIR * 4, 0);
  CHECK_SITE (l_triple, "vm_alloc", N_TRIPLE, N_TRIPLE * 48, N_TRIPLE * 6,
	      0);
#ifdef __OPTIMIZE__
  CHECK_SITE_CALLED (l_pop, l_first, POP_CALLEE, N_PAIR, N_PAIR * 16,
		     N_PAIR * 2, 0);
  CHECK_SITE_CALLED (l_pop, l_second, POP_CALLEE, N_TRIPLE, N_TRIPLE * 16,
		     N_TRIPLE * 2, 0);
#else
  CHECK_SITE (l_pop, "GC_MALLOC_WORDS", N_PAIR + N_TRIPLE,
	      (N_PAIR + N_TRIPLE) * 16, (N_PAIR + N_TRIPLE) * 2, 0);
#endif
  mp_alloc_stats (&g);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 2 * (N_PAIR + N_TRIPLE));
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
