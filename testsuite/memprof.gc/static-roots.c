/* The runtime keeps its big tables out of the program's data and bss.
   Boehm scans those as roots at every collection and counts their size
   in its estimate of what a collection costs, which sets how much the
   program allocates between two: a runtime with 440 kB there made
   bench/bt-gc.c collect 73 times at depth 15 where the plain build
   collects 53.  This program has almost no data of its own, so the bss
   of its writable segments is the runtime's: under 64 kB, the size up
   to which a zero array added to the plain bt-gc left its 53
   collections as they were.  The bss alone, since the sanitizers fill
   the initialised data with 750 kB of their own descriptors, there for
   any program.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#define _GNU_SOURCE

#include <elf.h>
#include <link.h>
#include <gc.h>
#include "../lib/mptest.h"

/* Add up the bss of the first object's writable loaded segments (what
   they hold past their contents in the file): the first object that
   dl_iterate_phdr reports is the program.  */
static int
bss_size (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  size_t *total = data;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD
        && (info->dlpi_phdr[i].p_flags & PF_W))
      *total += info->dlpi_phdr[i].p_memsz - info->dlpi_phdr[i].p_filesz;
  return 1;
}

int
main (void)
{
  GC_INIT ();
  CHECK (GC_MALLOC (16) != NULL);       /* the runtime has started */
  size_t total = 0;
  dl_iterate_phdr (bss_size, &total);
  CHECK (total > 0);
  CHECK (total < 64 * 1024);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
