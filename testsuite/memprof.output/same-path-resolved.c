/* Two outputs' paths that name one file in two spellings, as the
   file's directory resolves them: the later key is dropped with one
   warning, as for one spelling (same-path-forms.c), a forked child's
   PATH.PID and PATH.%p too.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=./one.txt,pprof=one.txt,eventlog=two.json,folded=.//two.json,json=three.json,html=./two.json.%p" } */

#include "same-path-forms.c"

/* { dg-output "^memprof: MEMPROF: report and pprof name the same file 'one.txt': no pprof written\n" } */
/* { dg-output "memprof: MEMPROF: eventlog and folded name the same file './/two.json': no folded written\n" } */
/* { dg-output "memprof: MEMPROF: eventlog and html name the same file './two.json.%p': no html written\nok\n$" } */
/* { dg-final { scan-file one.txt "\\A==== memprof report, pid \[0-9\]+ ====\n" } } */
/* { dg-final { scan-file one.txt "==== end of memprof report ====\n\\Z" } } */
/* { dg-final { scan-file two.json "\\A\\\[" } } */
