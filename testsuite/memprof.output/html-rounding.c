/* The HTML page shows estimates rounded, as the text report does: at
   sampling rate 0.37 the figures are fractions (a sample of a word
   stands for 21.62 bytes), which the JSON keeps and the rendered page's
   tables and flame graph tooltips show as whole numbers.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=0.37,report=none,json=out.json,html=out.html" } */

#include <gc.h>
#include <stdio.h>
#include <stdlib.h>

void *volatile sink;

static __attribute__ ((noinline)) void
churn (int n)
{
  for (int i = 0; i < n; i++)
    {
      sink = malloc (24 + i % 40);
      free (sink);
      sink = GC_MALLOC (16 + i % 24);
    }
}

int
main (void)
{
  GC_INIT ();
  churn (5000);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.json "\"allocated\":\[0-9\]+\\.\[0-9\]+," } } */
/* { dg-final { scan-html-dom-not out.html "class=\"n\">-?\[0-9,\]*\\.\[0-9\]|\[0-9\]\\.\[0-9\]+ bytes" } } */
/* { dg-final { scan-html-json out.html out.json } } */
