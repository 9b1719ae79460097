/* lto-inline.c with each symbol in its own LTO partition: the early
   descriptors are then in other units than the functions they were
   inlined into, so their initializers cannot be read there.  The sites
   are the same, exactly; a pop's only names the macro that gc_inline.h's
   all expand to, since the one written is in the descriptor.  */
/* { dg-do run } */
/* { dg-require-effective-target lto } */
/* { dg-options "-std=gnu11 -flto -flto-partition=max -fplugin-arg-memprof-allocator=vm_alloc:gc" } */
/* { dg-prune-output "using serial compilation of" } */
/* { dg-prune-output "see the .-flto. option documentation" } */

#define POP_CALLEE "GC_FAST_MALLOC_GRANS"
#include "lto-inline.c"

/* { dg-output "(^|\n)ok\n" } */
