/* A symlink at an output's name is replaced, not followed: the file it
   points at keeps what it had, for every form; a symlink to a file that
   does not exist makes no file there.  No temporary file is left.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=report.txt,pprof=prof.pb.gz,folded=stacks.folded,json=report.json,html=report.html" } */

#include <stdlib.h>
#include <unistd.h>
#include "outputs.h"

void *volatile kept[3];

/* NAME a symlink to a good file, TARGET.  */
static void
plant (const char *name, const char *target)
{
  good_file (target);
  if (symlink (target, name) != 0)
    perror (name);
}

int
main (void)
{
  plant ("report.txt", "precious.txt");
  plant ("prof.pb.gz", "precious.pb.gz");
  plant ("report.json", "precious.json");
  plant ("report.html", "precious.html");
  if (symlink ("made-through-link", "stacks.folded") != 0)
    perror ("stacks.folded");
  for (int i = 0; i < 3; i++)
    kept[i] = malloc (100);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file precious.txt "\\A(good precious\\.txt\n)\\Z" } } */
/* { dg-final { scan-file precious.pb.gz "\\A(good precious\\.pb\\.gz\n)\\Z" } } */
/* { dg-final { scan-file precious.json "\\A(good precious\\.json\n)\\Z" } } */
/* { dg-final { scan-file precious.html "\\A(good precious\\.html\n)\\Z" } } */
/* { dg-final { scan-dir-not "made-through-link" } } */
/* { dg-final { scan-file report.txt "^\[^\n\]*symlink\\.c\\(33\\): \\\[numAllocate:3, numAllocateOK:3, bytesAllocated:300\\\]  malloc in main$" } } */
/* { dg-final { scan-file report.json "^,\"allocator\":\{\"numAllocate\":3," } } */
/* { dg-final { scan-file report.html "^<!DOCTYPE html>" } } */
/* { dg-final { scan-file stacks.folded "^(\[^ \n\]*;)?main \[0-9\]+$" } } */
/* { dg-final { scan-pprof prof.pb.gz "-sample_index=alloc_space -unit=B -top" "of 312B total" } } */
/* { dg-final { scan-dir-not "*.tmp*" } } */
