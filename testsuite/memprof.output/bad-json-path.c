/* The JSON report is made once for the json and html keys, and copied
   to both files: with the json path unwritable, its one warning is all
   that is lost, and the HTML page still gets the whole report, the live
   blocks' figures included.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none,json=/nonexistent/j.json,html=good.html" } */

#include <stdio.h>
#include <stdlib.h>

void *kept[7];

int
main (void)
{
  for (int i = 0; i < 7; i++)
    kept[i] = calloc (2, 8);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\nmemprof: cannot write the JSON report to '/nonexistent/j.json': No such file or directory\n$" } */
/* { dg-final { scan-file good.html "^,\"allocator\":\{\"numAllocate\":7,\"numAllocateOK\":7," } } */
/* { dg-final { scan-file good.html "^,?\{\"frames\":\\\[\[0-9,\]+\\\],\"kind\":\"malloc\",\"samples\":14,\"allocated\":112,\"allocated_count\":7,\"live\":112,\"live_count\":7,\"promoted\":0\}" } } */
/* { dg-final { scan-file good.html "\\\]\}\n</script>\n<script>\n" } } */
