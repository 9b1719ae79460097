/* Names that need escaping: a file name (set by #line) with a quote, a
   backslash, <, & and >, a UTF-8 function name, and a file name whose
   bytes are not UTF-8.  The JSON escapes each as RFC 8259 and the HTML
   embedding require (doc/report-json.md), the HTML page parses it and
   renders, and the folded stacks carry the names as they are.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none,folded=out.folded,json=out.json,html=out.html" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

#line 100 "we\"ird\\dir/caf\xc3\xa9<&>.c"
__attribute__ ((noinline)) void
café_ünï (void)
{
  sink = malloc (24);
  free (sink);
}
#line 200 "bad\xff.c"
__attribute__ ((noinline)) void
bad_bytes (void)
{
  sink = malloc (8);
  free (sink);
}
#line 300 "names.c"

int
main (void)
{
  café_ünï ();
  bad_bytes ();
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.json "\{\"file\":\"we\\\\\"ird\\\\\\\\dir/caf\xc3\xa9\\\\u003c\\\\u0026\\\\u003e.c\",\"line\":103,\"column\":\[0-9\]+,\"function\":\"caf\xc3\xa9_\xc3\xbcn\xc3\xaf\"" } } */
/* { dg-final { scan-file out.json "\{\"function\":\"caf\xc3\xa9_\xc3\xbcn\xc3\xaf\",\"samples\":3," } } */
/* { dg-final { scan-file out.json "\{\"file\":\"bad\\\\ufffd.c\",\"line\":203," } } */
/* { dg-final { scan-file-not out.json "\[<>&\xff\]" } } */
/* { dg-final { scan-file out.folded "^main;caf\xc3\xa9_\xc3\xbcn\xc3\xaf 24$" } } */
/* { dg-final { scan-file out.folded "^main;bad_bytes 8$" } } */
/* { dg-final { scan-html out.html "^selftest: pass zoomed=\[^ \]+ boxes=\[1-9\]\[0-9\]* functions=\[1-9\]\[0-9\]* sites=4 screenshot=\[1-9\]\[0-9\]*$" } } */
/* { dg-final { scan-html-json out.html out.json } } */
