// overloads.C without DWARF: the functions are the symbol table's,
// whose mangled names symbols.c demangles into their signatures, the
// static ones' too.
// { dg-do run }
// { dg-options "-g0" }
// { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt,folded=out.folded" }

#include "overloads.C"

// { dg-output "^ok\n$" }
// { dg-final { scan-file out.txt "^helper\\(double\\): 2097152 samples\n  exclusive: allocated 16777216 B in 16 blocks" } }
// { dg-final { scan-file out.txt "^helper\\(int\\): 786432 samples\n  exclusive: allocated 6291456 B in 6 blocks" } }
// { dg-final { scan-file out.txt "^local\\(double\\): 393216 samples\n  exclusive: allocated 3145728 B in 3 blocks" } }
// { dg-final { scan-file out.txt "^local\\(int\\): 131072 samples\n  exclusive: allocated 1048576 B in 1 blocks" } }
// { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;Pool::helper\\(int\\);helper\\(int\\) 2097152$" } }
