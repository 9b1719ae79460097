/* Two functions of one name, `static void helper (int)', in two files:
   namesakes/a.c's allocates 4 MiB, namesakes/b.c's 16 MiB.  A function
   is its name and its file, so every form of the report keeps them
   apart, as `helper (a.c)' and `helper (b.c)', each with its own exact
   figures (sampling rate 1).  At -O2 each helper is inlined into its
   caller, a_run or b_run, and is known from DWARF alone.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-additional-sources "namesakes/a.c namesakes/b.c" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt,pprof=out.pb.gz,folded=out.folded,json=out.json,html=out.html" } */

#include <stdio.h>

void *volatile namesakes_sink;
void a_run (void);
void b_run (void);

int
main (void)
{
  a_run ();
  b_run ();
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* The text report.  */
/* { dg-final { scan-file out.txt "^helper \\(b.c\\): 2097152 samples\n  exclusive: allocated 16777216 B in 16 blocks \\+ \[0-9\]+ B overhead; copied 0 B \\(ages 0/1/2/3\\+: 0/0/0/0\\); live 0 B; promoted 0.0%\n    malloc: allocated 16 blocks 16777216\\+\[0-9\]+ B;.*\n  inclusive: allocated 16777216 B in 16 blocks" } } */
/* { dg-final { scan-file out.txt "^helper \\(a.c\\): 524288 samples\n  exclusive: allocated 4194304 B in 4 blocks \\+ \[0-9\]+ B overhead; copied 0 B \\(ages 0/1/2/3\\+: 0/0/0/0\\); live 0 B; promoted 0.0%\n    malloc: allocated 4 blocks 4194304\\+\[0-9\]+ B;.*\n  inclusive: allocated 4194304 B in 4 blocks" } } */
/* { dg-final { scan-file out.txt "^b_run:\n  inclusive: allocated 16777216 B in 16 blocks" } } */
/* { dg-final { scan-file out.txt "^main:\n  inclusive: allocated 20971520 B in 20 blocks" } } */
/* { dg-final { scan-file-not out.txt "^helper:" } } */
/* JSON: two functions, and two frames' names, one for each.  */
/* { dg-final { scan-json out.json {.functions[] | select(.function | startswith("helper")) | [.function, .samples, .exclusive.allocated, .exclusive.count, .inclusive.allocated] | @tsv} "\\Ahelper \\(b.c\\)\t2097152\t16777216\t16\t16777216\nhelper \\(a.c\\)\t524288\t4194304\t4\t4194304\\Z" } } */
/* { dg-final { scan-json out.json {[.frames[].function | select(startswith("helper"))] | unique | join(",")} "\\Ahelper \\(a.c\\),helper \\(b.c\\)\\Z" } } */
/* Folded stacks, outermost first.  */
/* { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;a_run;helper \\(a.c\\) 4194304$" } } */
/* { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;b_run;helper \\(b.c\\) 16777216$" } } */
/* pprof: two functions, with their own figures (go tool pprof adds
   ` (inline)' to a function inlined at the location).  */
/* { dg-final { scan-pprof out.pb.gz "-sample_index=alloc_space -unit=B -top" "^ +16777216B +\[0-9.\]+% +\[0-9.\]+% +16777216B +\[0-9.\]+% +helper \\(b.c\\)( \\(inline\\))?$" } } */
/* { dg-final { scan-pprof out.pb.gz "-sample_index=alloc_space -unit=B -top" "^ +4194304B +\[0-9.\]+% +\[0-9.\]+% +4194304B +\[0-9.\]+% +helper \\(a.c\\)( \\(inline\\))?$" } } */
/* { dg-final { scan-pprof out.pb.gz "-sample_index=alloc_objects -top" "^ +4 +\[0-9.\]+% +\[0-9.\]+% +4 +\[0-9.\]+% +helper \\(a.c\\)( \\(inline\\))?$" } } */
/* HTML: the page shows the JSON's functions and flame graphs, the two
   names, and five functions: main, a_run, b_run and the two helpers
   (stacks stop at main).  */
/* { dg-final { scan-html out.html "^selftest: pass zoomed=\[^ \]+ boxes=\[1-9\]\[0-9\]* functions=5 sites=5 screenshot=\[1-9\]\[0-9\]*$" } } */
/* { dg-final { scan-html-json out.html out.json } } */
/* { dg-final { scan-file out.html.dom "<td class=\"fn\"\[^>\]*>helper \\(a.c\\)</td>" } } */
/* { dg-final { scan-file out.html.dom "<td class=\"fn\"\[^>\]*>helper \\(b.c\\)</td>" } } */
