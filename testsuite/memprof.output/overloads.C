// Functions that overload one name are different functions.  Where
// DWARF has their linkage names (a function with external linkage, or
// a member), they are told apart by their demangled signatures:
// helper(int) allocates 4 MiB, helper(double) 16 MiB, and the member
// Pool::helper(int) calls helper(int) for 2 MiB more.  GCC gives no
// linkage name to a function with internal linkage: the static
// local(int), 1 MiB, and local(double), 3 MiB, are namesakes told apart
// by the lines that define them.  Blocks of 1 MiB, at sampling rate 1.
// The program uses C++'s library, whose __cxa_demangle demangles.
// overloads-g0.C is this program without DWARF, named from the symbol
// table.
// { dg-do run }
// { dg-options "-g" }
// { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt,folded=out.folded,json=out.json,pprof=out.pb.gz" }

#include <cstdlib>
#include <iostream>

void *volatile sink;

// noipa: no clone in the symbol table, such as helper(double) [clone
// .constprop.0].
__attribute__ ((noipa)) void
helper (int n)
{
  for (int i = 0; i < n; i++)
    {
      sink = malloc (1 << 20);
      free (sink);
    }
}

__attribute__ ((noipa)) void
helper (double mib)
{
  for (; mib > 0; mib--)
    {
      sink = malloc (1 << 20);
      free (sink);
    }
}

struct Pool
{
  __attribute__ ((noipa)) static void
  helper (int n)
  {
    ::helper (n);
    __asm__ volatile ("");      // not a tail call: this frame stays
  }
};

__attribute__ ((noipa)) static void
local (int n)
{
  while (n-- > 0)
    free (sink = malloc (1 << 20));
}

__attribute__ ((noipa)) static void
local (double mib)
{
  for (double d = 0; d < mib; d++)
    free (sink = malloc (1 << 20));
}

int
main ()
{
  helper (4);
  helper (16.0);
  Pool::helper (2);
  local (1);
  local (3.0);
  std::cout << "ok" << std::endl;
  return 0;
}

// { dg-output "^ok\n$" }
// { dg-final { scan-file out.txt "^helper\\(double\\): 2097152 samples\n  exclusive: allocated 16777216 B in 16 blocks" } }
// { dg-final { scan-file out.txt "^helper\\(int\\): 786432 samples\n  exclusive: allocated 6291456 B in 6 blocks" } }
// { dg-final { scan-file out.txt "^Pool::helper\\(int\\):\n  inclusive: allocated 2097152 B in 2 blocks" } }
// { dg-final { scan-file out.txt "^local \\(overloads.C:54\\): 131072 samples\n  exclusive: allocated 1048576 B in 1 blocks" } }
// { dg-final { scan-file out.txt "^local \\(overloads.C:61\\): 393216 samples\n  exclusive: allocated 3145728 B in 3 blocks" } }
// { dg-final { scan-file-not out.txt "^(helper|local):" } }
// { dg-final { scan-json out.json {.functions[] | select(.function | test("helper|local")) | [.function, .exclusive.allocated // 0, .inclusive.allocated] | @tsv} "\\Ahelper\\(double\\)\t16777216\t16777216\nhelper\\(int\\)\t6291456\t6291456\nlocal \\(overloads.C:61\\)\t3145728\t3145728\nlocal \\(overloads.C:54\\)\t1048576\t1048576\nPool::helper\\(int\\)\t0\t2097152\\Z" } }
// { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;helper\\(double\\) 16777216$" } }
// { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;Pool::helper\\(int\\);helper\\(int\\) 2097152$" } }
// { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;local \\(overloads.C:61\\) 3145728$" } }
// { dg-final { scan-pprof out.pb.gz "-sample_index=alloc_space -unit=B -top" "^ +16777216B +\[0-9.\]+% +\[0-9.\]+% +16777216B +\[0-9.\]+% +helper\\(double\\)$" } }
// { dg-final { scan-pprof out.pb.gz "-sample_index=alloc_space -unit=B -top" "^ +6291456B +\[0-9.\]+% +\[0-9.\]+% +6291456B +\[0-9.\]+% +helper\\(int\\)$" } }
// { dg-final { scan-pprof out.pb.gz "-sample_index=alloc_space -unit=B -top" "^ +1048576B +\[0-9.\]+% +\[0-9.\]+% +1048576B +\[0-9.\]+% +local \\(overloads.C:54\\)$" } }
