/* The caller of an allocation the plugin did not rewrite is named from
   its library's symbol table when the library keeps its DWARF apart:
   here stdio's buffer for stdout, which libc's _IO_file_doallocate
   allocates.  An exported function is named from the dynamic symbols
   that the loader mapped (symtab.c), so that a report that shows no
   frame of a call stack loads no libdw, and reads neither libc's file
   nor its separate debugging information (issue 18); the maps are read
   by a destructor of the program's, which runs after the exit
   report.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1,sections=sites,report=out.txt" } */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *volatile sink;

__attribute__ ((destructor)) static void
check_maps (void)
{
  FILE *f = fopen ("/proc/self/maps", "r");
  char line[4096];
  int mapped = 0;
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    mapped |= strstr (line, "/libdw") != NULL
              || strstr (line, "/usr/lib/debug/") != NULL;
  if (f != NULL)
    fclose (f);
  fprintf (stderr, f == NULL ? "no maps\n"
                   : mapped ? "libdw mapped\n" : "libdw not mapped\n");
}

int
main (void)
{
  sink = malloc (8);            /* a site: the runtime is linked */
  free (sink);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\nlibdw not mapped\n$" } */
/* { dg-final { scan-file out.txt "\n\[^\n\]*libc\\.so\\.6\\(0\\): \\\[numAllocate:1, numAllocateOK:1, bytesAllocated:\[0-9\]+\\\]  malloc \\(not rewritten\\) in _IO_file_doallocate\n" } } */
