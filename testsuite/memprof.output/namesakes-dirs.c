/* Namesakes whose files share a base name, namesakes/one/same.c and
   namesakes/two/same.c, are told apart by their files' whole paths.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-additional-sources "namesakes/one/same.c namesakes/two/same.c" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt,folded=out.folded" } */

#include <stdio.h>

void *volatile namesakes_sink;
void one_run (void);
void two_run (void);

int
main (void)
{
  one_run ();
  two_run ();
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.txt "^helper \\(/\[^ \n\]+/namesakes/two/same.c\\): 262144 samples\n  exclusive: allocated 2097152 B in 1 blocks" } } */
/* { dg-final { scan-file out.txt "^helper \\(/\[^ \n\]+/namesakes/one/same.c\\): 131072 samples\n  exclusive: allocated 1048576 B in 1 blocks" } } */
/* { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;one_run;helper \\(/\[^ \n\]+/namesakes/one/same.c\\) 1048576$" } } */
/* { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;two_run;helper \\(/\[^ \n\]+/namesakes/two/same.c\\) 2097152$" } } */
