/* Every form of the report, at sampling rate 1, on a deterministic
   program: the totals are exact.  1000 pairs of 2 words (GC_MALLOC (16):
   Boehm gives 32 bytes, so 16 bytes of overhead each) are allocated in
   make_pair, inlined into build, and survive two collections; 50 blocks
   of 100 bytes are malloc'ed and freed in strs.  The pprof profile must
   show make_pair as an inline frame of build's location.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,callstack_size=8,report=out.txt,pprof=out.pb.gz,folded=out.folded,json=out.json,html=out.html" } */

#include <gc.h>
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__ ((always_inline)) void *
make_pair (void)
{
  return GC_MALLOC (16);
}

__attribute__ ((noinline)) void *
build (int n)
{
  void *keep = NULL;
  for (int i = 0; i < n; i++)
    {
      void **p = make_pair ();
      p[0] = keep;
      keep = p;
    }
  return keep;
}

__attribute__ ((noinline)) void
strs (int n)
{
  for (int i = 0; i < n; i++)
    {
      char *volatile s = malloc (100);
      free (s);
    }
}

void *volatile root;

int
main (void)
{
  GC_INIT ();
  root = build (1000);
  GC_gcollect ();
  GC_gcollect ();
  strs (50);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* The text report's space profiles.  */
/* { dg-final { scan-file out.txt "^== space profiles by function \\(exact: sampling rate 1\\): \[0-9\]+ of \[0-9\]+, largest first ==$" } } */
/* { dg-final { scan-file out.txt "^make_pair: 2000 samples\n  exclusive: allocated 16000 B in 1000 blocks \\+ 16000 B overhead; copied 32000 B \\(ages 0/1/2/3\\+: 16000/16000/0/0\\); live 16000 B; promoted 100.0%\n    normal: allocated 1000 blocks 16000\\+16000 B; copies 1000 blocks 16000\\+16000 B \\| 1000 blocks 16000\\+16000 B \\| 0 blocks 0\\+0 B \\| 0 blocks 0\\+0 B\n" } } */
/* The 400 B of the malloc blocks' overhead is glibc's slack: ASan's
   malloc_usable_size is the size asked for, so under ASan there is none.  */
/* { dg-final { scan-file out.txt "^strs: 650 samples\n  exclusive: allocated 5200 B in 50 blocks \\+ 400 B overhead; copied 0 B \\(ages 0/1/2/3\\+: 0/0/0/0\\); live 0 B; promoted 0.0%\n    malloc: allocated 50 blocks 5200\\+400 B;" { target { ! asan } } } } */
/* { dg-final { scan-file out.txt "^main:\n  inclusive: allocated 21200 B in 1050 blocks \\+ 16400 B overhead; copied 32000 B \\(ages 0/1/2/3\\+: 16000/16000/0/0\\); live 16000 B; promoted 75.5%$" { target { ! asan } } } } */
/* { dg-final { scan-file out.txt "^build:\n  inclusive: allocated 16000 B in 1000 blocks" } } */
/* Folded stacks, outermost first.  */
/* { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;build;make_pair 16000$" } } */
/* { dg-final { scan-file out.folded "^(\[^ \n\]*;)?main;strs 5200$" } } */
/* JSON.  */
/* { dg-final { scan-file out.json "^\{\"memprof\":1,\"pid\":\[0-9\]+,\"sampling\":\{\"rate\":1,\"rate_min\":1,\"rate_max\":1,\"exact\":true,\"callstack_size\":8\}$" } } */
/* { dg-final { scan-file out.json "^,\"allocator\":\{\"numAllocate\":1050,\"numAllocateOK\":1050,.*\"numDeallocate\":50,.*\"bytesAllocated\":21000," } } */
/* { dg-final { scan-file out.json "^\{\"file\":\"\[^\"\]*.formats.c\",\"line\":18,\"column\":\[0-9\]+,\"function\":\"build\",\"callee\":\"GC_malloc\",\"inlined\":\\\[\{\"function\":\"make_pair\",\"file\":\"\[^\"\]*.formats.c\",\"line\":27\}\\\],\"stats\":\{\"numAllocate\":1000," } } */
/* { dg-final { scan-file out.json "^\{\"function\":\"make_pair\",\"samples\":2000,\"exclusive\":\{\"allocated\":16000,\"count\":1000,\"overhead\":16000,\"copied\":32000,\"copies\":\\\[16000,16000,0,0\\\],\"live\":16000,\"kinds\":\{\"normal\":\{\"allocated\":\{\"count\":1000,\"data\":16000,\"overhead\":16000\},\"copies\":\\\[\{\"count\":1000,\"data\":16000,\"overhead\":16000\},\{\"count\":1000," } } */
/* { dg-final { scan-file out.json "^,\{\"function\":\"strs\",\"samples\":650,\"exclusive\":\{\"allocated\":5200,\"count\":50,\"overhead\":400,\"copied\":0,\"copies\":\\\[0,0,0,0\\\],\"live\":0,\"kinds\":\{\"malloc\":" { target { ! asan } } } } */
/* { dg-final { scan-file out.json "^\{\"frames\":\\\[\[0-9,\]+\\\],\"kind\":\"normal\",\"samples\":2000,\"allocated\":16000,\"allocated_count\":1000,\"live\":16000,\"live_count\":1000,\"promoted\":16000\}" } } */
/* The malloc blocks, all freed: none live, whatever was allocated.  */
/* { dg-final { scan-file out.json "^,\{\"frames\":\\\[\[0-9,\]+\\\],\"kind\":\"malloc\",\"samples\":650,\"allocated\":5200,\"allocated_count\":50,\"live\":0,\"live_count\":0,\"promoted\":0\}" } } */
/* { dg-final { scan-file out.json "^,?\{\"function\":\"make_pair\",\"file\":\"\[^\"\]*formats.c\",\"line\":18,\"inlined\":true\}$" } } */
/* { dg-final { scan-file out.json "^,?\{\"t\":\[0-9.e-\]+,\"heap_words\":\[1-9\]\[0-9\]*,\"live_words\":\[1-9\]\[0-9\]*,\"minor_collections\":2,\"major_collections\":2\}(\\\]\})?$" } } */
/* pprof, read by go tool pprof: exact values, and make_pair as an
   inline Line of build's Location.  */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^ +1000 +16000 +1000 +16000: \[0-9 \]+\n +kind:\\\[normal\\\]$" } } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^ +50 +5200 +0 +0: \[0-9 \]+\n +kind:\\\[malloc\\\]$" } } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^ +\[0-9\]+: 0x\[0-9a-f\]+ M=1 make_pair \[^ \]*formats.c:18 s=0\n +build \[^ \]*formats.c:27 s=0$" } } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^PeriodType: space bytes\nPeriod: 8$" } } */
/* { dg-final { scan-pprof out.pb.gz "-sample_index=alloc_space -unit=B -top" "of 21200B total" } } */
/* { dg-final { scan-pprof out.pb.gz "-sample_index=inuse_objects -top" "of 1000 total" } } */
/* HTML: renders, its flame graph zooms on a click, and it shows the
   numbers of the JSON.  */
/* { dg-final { scan-html out.html "^selftest: pass zoomed=\[^ \]+ boxes=\[1-9\]\[0-9\]* functions=\[1-9\]\[0-9\]* sites=3 screenshot=\[1-9\]\[0-9\]*$" } } */
/* { dg-final { scan-html-json out.html out.json } } */
