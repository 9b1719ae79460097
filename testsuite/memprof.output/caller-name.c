/* The caller of an allocation the plugin did not rewrite is named from
   its library's symbol table (symtab.c) when the library keeps its
   DWARF apart: here stdio's buffer for stdout, which libc's
   _IO_file_doallocate allocates.  Its name is found among libc's
   global symbols, the debug file's if libc6-dbg is installed, else the
   dynamic ones.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1,report=out.txt" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

int
main (void)
{
  sink = malloc (8);            /* a site: the runtime is linked */
  free (sink);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.txt "\n\[^\n\]*libc\\.so\\.6\\(0\\): \\\[numAllocate:1, numAllocateOK:1, bytesAllocated:\[0-9\]+\\\]  malloc \\(not rewritten\\) in _IO_file_doallocate\n" } } */
