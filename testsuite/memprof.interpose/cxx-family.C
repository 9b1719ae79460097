// C++'s operators are a family: each new and delete the plugin rewrote
// is a site of its own, counted exactly, with the operator's behaviour
// kept: std::bad_alloc propagates, the new_handler runs, nothrow gives
// NULL, aligned blocks are aligned; templates instantiated here
// (std::vector's, std::map's) are rewritten too, and std::string's
// code, in libstdc++, is counted by interposition.
// { dg-do run }
// { dg-options "-std=gnu++17 -pthread" }
// { dg-set-target-env-var MEMPROF "interpose=1,html=out.html,json=out.json" }

#include <map>
#include <memory>
#include <new>
#include <pthread.h>
#include <string>
#include <vector>
#include "../lib/mptest.h"

void *volatile sink;
static unsigned l_new, l_delete, l_new_array, l_delete_array, l_aligned,
  l_aligned_delete, l_nothrow, l_huge, l_huge_nothrow, l_handled,
  l_throwing, l_thread_new, l_thread_delete;

struct alignas (64) line
{
  char bytes[64];
};

struct pair
{
  long a, b;
};

// Blocks of the program's and of libstdc++'s code, counted between S0
// and the end: BLOCKS of BYTES.
static void
check_delta (const struct mp_alloc_stats *s0, long blocks, long bytes)
{
  struct mp_alloc_stats s1;
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocateOK - s0->numAllocateOK, blocks);
  CHECK_EQ (s1.bytesAllocated - s0->bytesAllocated, bytes);
}

static int handler_calls;
static void *reserve;

// Frees the reserve, then gives up: the second call takes itself away.
static void
handler ()
{
  handler_calls++;
  if (reserve != NULL)
    {
      free (reserve);
      reserve = NULL;
    }
  else
    std::set_new_handler (nullptr);
}

struct out_of_memory
{
};

static void
throwing_handler ()
{
  throw out_of_memory ();
}

static const size_t huge = (size_t) 1 << 62;

static void *
thread_main (void *)
{
  for (int i = 0; i < 1000; i++)
    {
      pair *p = new pair (); l_thread_new = __LINE__;
      sink = p;
      delete p; l_thread_delete = __LINE__;
    }
  return NULL;
}

int
main ()
{
  line *lines[10];
  for (int i = 0; i < 10; i++)
    {
      pair *p = new pair (); l_new = __LINE__;
      sink = p;
      delete p; l_delete = __LINE__;
      int *a = new int[7]; l_new_array = __LINE__;
      sink = a;
      delete[] a; l_delete_array = __LINE__;
      // Live together, lest one reused block be aligned by chance.
      lines[i] = new line; l_aligned = __LINE__;
      CHECK (((unsigned long) lines[i] & 63) == 0);
      int *n = new (std::nothrow) int; l_nothrow = __LINE__;
      sink = n;
      delete n;
    }
  for (int i = 0; i < 10; i++)
    {
      delete lines[i]; l_aligned_delete = __LINE__;
    }
  CHECK_ALLOCS (l_new, 10, 10 * sizeof (pair));
  CHECK_FREES (l_delete, 10, 10 * sizeof (pair));
  struct mpt_site s = SITE (l_delete);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  CHECK_ALLOCS (l_new_array, 10, 10 * 7 * sizeof (int));
  CHECK_FREES (l_delete_array, 10, 10 * 7 * sizeof (int));
  CHECK_ALLOCS (l_aligned, 10, 10 * sizeof (line));
  CHECK_FREES (l_aligned_delete, 10, 10 * sizeof (line));
  CHECK_ALLOCS (l_nothrow, 10, 10 * sizeof (int));

  // ASan's operator new aborts where libstdc++'s throws: the failures
  // are checked without it.
#ifndef __SANITIZE_ADDRESS__
  // std::bad_alloc, through the runtime's frames; a failure counted.
  int caught = 0;
  try
    {
      l_huge = __LINE__; sink = new char[huge];
    }
  catch (std::bad_alloc &)
    {
      caught = 1;
    }
  CHECK_EQ (caught, 1);
  s = SITE (l_huge);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 0);
  sink = new (std::nothrow) char[huge]; l_huge_nothrow = __LINE__;
  CHECK (sink == NULL);
  s = SITE (l_huge_nothrow);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 0);

  // The new_handler runs as libstdc++'s operator runs it: until it
  // takes itself away, then std::bad_alloc; for nothrow, then NULL.
  reserve = malloc (100);
  std::set_new_handler (handler);
  caught = 0;
  try
    {
      l_handled = __LINE__; sink = new char[huge];
    }
  catch (std::bad_alloc &)
    {
      caught = 1;
    }
  CHECK_EQ (caught, 1);
  CHECK_EQ (handler_calls, 2);
  CHECK (reserve == NULL);
  s = SITE (l_handled);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 0);
  std::set_new_handler (handler);
  sink = new (std::nothrow) char[huge];
  CHECK (sink == NULL);
  CHECK_EQ (handler_calls, 3);

  // A handler's own exception goes through too, counted as a failure.
  std::set_new_handler (throwing_handler);
  caught = 0;
  try
    {
      l_throwing = __LINE__; sink = new char[huge];
    }
  catch (out_of_memory &)
    {
      caught = 1;
    }
  std::set_new_handler (nullptr);
  CHECK_EQ (caught, 1);
  s = SITE (l_throwing);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 0);
#endif

  // Containers: their blocks, wherever the code that asks for them is.
  struct mp_alloc_stats s0;
  {
    mp_alloc_stats (&s0);
    std::vector<long> v;
    v.reserve (100);
    sink = v.data ();
    check_delta (&s0, 1, 100 * sizeof (long));
  }
  {
    mp_alloc_stats (&s0);
    std::map<int, int> m;
    for (int i = 0; i < 10; i++)
      m[i] = i;
    sink = &m;
    // A node: its colour, three links, then the pair.
    check_delta (&s0, 10, 10 * (4 * sizeof (void *) + 2 * sizeof (int)));
  }
#ifndef __SANITIZE_ADDRESS__
  {
    // libstdc++'s own new, counted by interposition, which stands
    // aside under ASan.
    mp_alloc_stats (&s0);
    std::string str (100, 'x');
    sink = &str[0];
    check_delta (&s0, 1, 101);
  }
#endif

  // Threads: every new and delete counted, none lost.
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, thread_main, NULL);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], NULL);
  CHECK_ALLOCS (l_thread_new, 4000, 4000 * sizeof (pair));
  CHECK_FREES (l_thread_delete, 4000, 4000 * sizeof (pair));
  return mpt_done ();
}

// { dg-output "(^|\n)ok\n" }
// { dg-final { scan-html-json out.html out.json } }
