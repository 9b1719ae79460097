/* A process killed by a fatal signal while it writes its report at exit
   leaves the previous good file under the name and no temporary file.
   The signal comes from the program's own SIGXFSZ handler, at the write
   past RLIMIT_FSIZE: memprof leaves a handled SIGXFSZ to the program.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-shouldfail "killed by SIGTERM" } */
/* { dg-set-target-env-var MEMPROF "report=report.txt,json=report.json" } */

#include <signal.h>
#include <stdlib.h>
#include "outputs.h"

static void
on_xfsz (int sig)
{
  (void) sig;
  raise (SIGTERM);
}

int
main (void)
{
  good_file ("report.txt");
  signal (SIGXFSZ, on_xfsz);
  limit_file_size (512);
  char *volatile kept = malloc (100);
  (void) kept;
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\nmemprof: pid \[0-9\]+ killed by signal 15 \\(SIGTERM\\); its counts at that moment:\nnumAllocate:1\n" } */
/* { dg-final { scan-file report.txt "\\A(good report\\.txt\n)\\Z" } } */
/* { dg-final { scan-dir-not "report.json*" } } */
/* { dg-final { scan-dir-not "*.tmp*" } } */
