/* A file cut short by RLIMIT_FSIZE is not kept: the previous good file
   stays under the name, one line says why, and the text report goes to
   stderr whole.  SIGXFSZ, at its default (which the program sets: the
   harness may have started it ignored), does not kill the program at
   exit.  The folded stacks, small enough, are written.  No temporary
   file is left.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=report.txt,json=report.json,html=report.html,folded=stacks.folded" } */

#include <signal.h>
#include <stdlib.h>
#include "outputs.h"

void *volatile kept[3];

int
main (void)
{
  good_file ("report.txt");
  good_file ("report.json");
  good_file ("report.html");
  limit_file_size (512);
  signal (SIGXFSZ, SIG_DFL);
  for (int i = 0; i < 3; i++)
    kept[i] = malloc (100);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\nmemprof: cannot write the report to 'report\\.txt': File too large; writing it to stderr\n==== memprof report, pid \[0-9\]+ ====\n" } */
/* { dg-output ".*\n\[^\n\]*file-size\\.c\\(26\\): \\\[numAllocate:3, numAllocateOK:3, bytesAllocated:300\\\]  malloc in main\n" } */
/* { dg-output ".*\n==== end of memprof report ====\n" } */
/* { dg-output "memprof: cannot write the JSON report to 'report\\.json': File too large\n" } */
/* { dg-output "memprof: cannot write the HTML report to 'report\\.html': File too large\n$" } */
/* { dg-final { scan-file report.txt "\\A(good report\\.txt\n)\\Z" } } */
/* { dg-final { scan-file report.json "\\A(good report\\.json\n)\\Z" } } */
/* { dg-final { scan-file report.html "\\A(good report\\.html\n)\\Z" } } */
/* { dg-final { scan-file stacks.folded "^(\[^ \n\]*;)?main \[0-9\]+$" } } */
/* { dg-final { scan-dir-not "*.tmp*" } } */
