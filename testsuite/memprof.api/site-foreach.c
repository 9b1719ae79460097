/* mp_site_foreach: every site that ran is visited once, with its file,
   line, column, function, callee and counters; a static inline helper
   that allocates gives an inline chain at -O2 (none at -O0, where it is
   not inlined); a nonzero return stops the walk and is returned.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static unsigned l_main_malloc, l_main_free, l_node, l_dup, l_dup_call;

__attribute__ ((noinline)) static void *
make_node (void)
{
  void *p = GC_MALLOC (48); l_node = __LINE__;
  return p;
}

static inline char *
dup_it (const char *s)
{
  char *p = strdup (s); l_dup = __LINE__;
  return p;
}

struct seen
{
  int main_malloc, main_free, node, dup, other, visits;
  int stop_after;
};

static int
visit (const struct mp_site_info *i, void *data)
{
  struct seen *w = data;
  w->visits++;
  if (strcmp (i->file, __FILE__) != 0)
    {
      w->other++;
      return 0;
    }
  CHECK (i->column > 0);
  if (i->line == l_main_malloc)
    {
      w->main_malloc++;
      CHECK (strcmp (i->function, "main") == 0);
      CHECK (strcmp (i->callee, "malloc") == 0);
      CHECK_EQ (i->n_inlined, 0);
      CHECK_EQ (i->stats.numAllocate, 3);
      CHECK_EQ (i->stats.bytesAllocated, 3 * 11);
      CHECK_EQ (i->minor_words + i->major_words, 0);
    }
  else if (i->line == l_main_free)
    {
      w->main_free++;
      CHECK (strcmp (i->function, "main") == 0);
      CHECK (strcmp (i->callee, "free") == 0);
      CHECK_EQ (i->stats.numDeallocate, 4);	/* 3 blocks and the strdup */
      CHECK_EQ (i->stats.numAllocate, 0);
    }
  else if (i->line == l_node)
    {
      w->node++;
      CHECK (strcmp (i->function, "make_node") == 0);
      CHECK (strcmp (i->callee, "GC_malloc") == 0);
      CHECK_EQ (i->n_inlined, 0);
      CHECK_EQ (i->stats.numAllocate, 5);
      CHECK_EQ (i->minor_words, 5 * 6);
      CHECK_EQ (i->major_words, 0);
    }
  else if (i->line == l_dup)
    {
      w->dup++;
      CHECK (strcmp (i->callee, "strdup") == 0);
      CHECK_EQ (i->stats.numAllocate, 1);
      CHECK_EQ (i->stats.bytesAllocated, 4);
#ifdef __OPTIMIZE__
      /* inlined into main: emitted in main, dup_it first in the chain,
         called from main at l_dup_call */
      CHECK (strcmp (i->function, "main") == 0);
      CHECK (i->n_inlined >= 1);
      if (i->n_inlined >= 1)
	{
	  CHECK (strcmp (i->inlined[0].function, "dup_it") == 0);
	  CHECK (strcmp (i->inlined[0].file, __FILE__) == 0);
	  CHECK_EQ (i->inlined[0].line, l_dup_call);
	}
#else
      CHECK (strcmp (i->function, "dup_it") == 0);
      CHECK_EQ (i->n_inlined, 0);
#endif
    }
  else
    w->other++;
  if (w->stop_after && w->visits == w->stop_after)
    return 42;
  return 0;
}

int
main (void)
{
  GC_INIT ();
  for (int i = 0; i < 5; i++)
    sink = make_node ();
  char *blocks[4];
  /* One site for the line: GCC may unroll the loop into three (it does
     at -O2 under ASan).  */
#pragma GCC unroll 1
  for (int i = 0; i < 3; i++)
    {
      blocks[i] = malloc (11); l_main_malloc = __LINE__;
    }
  blocks[3] = dup_it ("abc"); l_dup_call = __LINE__;
  CHECK (strcmp (blocks[3], "abc") == 0);
  for (int i = 0; i < 4; i++)
    {
      sink = blocks[i];
      free (blocks[i]); l_main_free = __LINE__;
    }

  struct seen w;
  memset (&w, 0, sizeof w);
  CHECK_EQ (mp_site_foreach (visit, &w), 0);
  CHECK_EQ (w.main_malloc, 1);
  CHECK_EQ (w.main_free, 1);
  CHECK_EQ (w.node, 1);
  CHECK_EQ (w.dup, 1);
  CHECK_EQ (w.other, 0);
  CHECK_EQ (w.visits, 4);

  /* stop after the second site: 42 comes back, no third visit */
  memset (&w, 0, sizeof w);
  w.stop_after = 2;
  CHECK_EQ (mp_site_foreach (visit, &w), 42);
  CHECK_EQ (w.visits, 2);
  memset (&w, 0, sizeof w);
  w.stop_after = 1;
  CHECK_EQ (mp_site_foreach (visit, &w), 42);
  CHECK_EQ (w.visits, 1);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
