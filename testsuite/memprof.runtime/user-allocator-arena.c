/* A user allocator may return memory that is neither Boehm's nor
   malloc's (here: an mmapped arena, as VMs do): the runtime cannot know
   its size, but it must count the call and must not read outside the
   block.  The arena starts right after an inaccessible guard page, so
   any peek before the block (e.g. at a malloc chunk header) faults.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -fplugin-arg-memprof-allocator=arena_gc:gc,arena_malloc:malloc" } */

#include <sys/mman.h>
#include <unistd.h>
#include "../lib/mptest.h"

void *volatile sink;
static char *arena;
static size_t used;

static void *
arena_take (size_t n)
{
  if (arena == NULL)
    {
      long page = sysconf (_SC_PAGESIZE);
      char *m = mmap (NULL, 16 * page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED || mprotect (m, page, PROT_NONE) != 0)
	{
	  perror ("mmap");
	  exit (2);
	}
      arena = m + page;
    }
  void *p = arena + used;
  used += (n + 15) & ~(size_t) 15;
  return p;
}

__attribute__ ((noinline)) void *
arena_gc (size_t n)
{
  return arena_take (n);
}

__attribute__ ((noinline)) void *
arena_malloc (size_t n)
{
  return arena_take (n);
}

int
main (void)
{
  void *a = arena_gc (32); unsigned l_gc = __LINE__;	/* the arena's first block */
  sink = a;
  void *b = arena_malloc (32); unsigned l_malloc = __LINE__;
  sink = b;
  used = 0;
  void *c = arena_malloc (64); unsigned l_malloc0 = __LINE__;	/* first again */
  sink = c;

  unsigned lines[] = { l_gc, l_malloc, l_malloc0 };
  for (int i = 0; i < 3; i++)
    {
      struct mpt_site s = SITE (lines[i]);
      CHECK_EQ (s.n, 1);
      CHECK_EQ (s.s.numAllocate, 1);
      CHECK_EQ (s.s.numAllocateOK, 1);
      /* the size is unknown; at least it must not be garbage */
      CHECK (s.s.bytesAllocated < ((uint64_t) 1 << 32));
    }
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
