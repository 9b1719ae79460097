/* Files that cannot be written each get one warning line naming the
   file and the reason, and lose nothing else: the text report still goes
   to stderr, and the forms whose paths are good are still written.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=/nonexistent/r.txt,pprof=/nonexistent/p.pb.gz,json=/nonexistent/j.json,html=/nonexistent/h.html,folded=good.folded" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

int
main (void)
{
  for (int i = 0; i < 7; i++)
    {
      sink = malloc (16);
      free (sink);
    }
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\nmemprof: cannot write the report to '/nonexistent/r\\.txt': No such file or directory; writing it to stderr\n==== memprof report, pid \[0-9\]+ ====\n" } */
/* { dg-output ".*\nnumAllocate:7\n.*\n==== end of memprof report ====\n" } */
/* { dg-output "memprof: cannot write the pprof profile to '/nonexistent/p\\.pb\\.gz': No such file or directory\n" } */
/* { dg-output "memprof: cannot write the JSON report to '/nonexistent/j\\.json': No such file or directory\n" } */
/* { dg-output "memprof: cannot write the HTML report to '/nonexistent/h\\.html': No such file or directory\n$" } */
/* { dg-final { scan-file good.folded "^(\[^ \n\]*;)?main 112$" } } */
