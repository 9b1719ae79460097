// A C++ program's allocations, the standard library's included (its
// containers' templates instantiated here are rewritten; std::string's
// code, in libstdc++, is not; libstdc++'s emergency pool is allocated
// before main): the totals are DHAT's on the same program built
// without memprof (dhat-agrees).
// { dg-do run }
// { dg-skip-if "interposition stands aside under ASan" { asan } }
// { dg-options "-std=gnu++17" }
// { dg-set-target-env-var MEMPROF "interpose=1,report=report.txt" }

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>
#ifndef DHAT_PLAIN
# include "../lib/mptest.h"
#endif

void *volatile sink;

struct alignas (64) line
{
  char bytes[64];
};

int
main ()
{
  // Unbuffered, stdout allocates nothing (see dhat-libc.c).
  setvbuf (stdout, NULL, _IONBF, 0);
#ifndef DHAT_PLAIN
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
#endif
  std::vector<int> v;
  for (int i = 0; i < 1000; i++)
    v.push_back (i);
  std::map<int, int> m;
  for (int i = 0; i < 100; i++)
    m[i] = i;
  std::string s;
  for (int i = 0; i < 100; i++)
    s += "abcdefghij";
  auto sp = std::make_shared<std::string> ("a string too long to be short");
  std::unique_ptr<line> aligned (new line);
  std::unique_ptr<int[]> array (new int[10]);
  // Seen by both builds: GCC removes a new and delete pair nothing sees.
  sink = aligned.get ();
  sink = array.get ();
#ifndef DHAT_PLAIN
  mp_alloc_stats (&s1);
  // vector: 11 blocks of 1, 2, 4, ..., 1024 ints; map: 100 nodes of 40
  // bytes; make_shared: one block; the aligned line and the array.
  CHECK (s1.numAllocateOK - s0.numAllocateOK >= 11 + 100 + 1 + 2);
  CHECK (s1.bytesUsed - s0.bytesUsed
         >= (long) (1024 * sizeof (int) + 100 * 40 + 64 + 40));
  CHECK (((unsigned long) aligned.get () & 63) == 0);
#endif
  int ok = v.size () == 1000 && m.size () == 100 && s.size () == 1000
           && sp->size () == 29;
#ifndef DHAT_PLAIN
  CHECK (ok);
  return mpt_done ();
#else
  return !ok;
#endif
}

// { dg-output "(^|\n)ok\n" }
// { dg-final { dhat-agrees report.txt } }
