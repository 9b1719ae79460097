/* Stacks stop at main, as gdb's backtrace does, and a thread's at its
   start routine: no frame of libc's start-up (__libc_start_call_main,
   __libc_start_main, _start) or of what runs a thread (start_thread,
   clone3) in the text report, the folded stacks, the JSON, the HTML
   page or the pprof profile, nor in the tracker's call stacks, whose
   outermost frame is main or the start routine.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,stacks=0,report=out.txt,pprof=out.pb.gz,folded=out.folded,json=out.json,html=out.html" } */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <memprof.h>

void *volatile sink;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  struct mp_frame f;
  size_t n = mp_callstack_length (a->callstack);
  if (n == 0 || mp_callstack_frame (a->callstack, n - 1, &f) != 0)
    puts ("no frame");
  else if (strcmp (f.function, "main") != 0
           && strcmp (f.function, "worker") != 0)
    printf ("outermost frame: %s\n", f.function);
  return NULL;
}

static __attribute__ ((noinline)) void
alloc_here (void)
{
  sink = malloc (64);
  free (sink);
  __asm__ volatile ("");
}

static void *
worker (void *arg)
{
  alloc_here ();
  __asm__ volatile ("");
  return arg;
}

int
main (void)
{
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_major = on_alloc;
  if (mp_memprof_start (1, 64, &tr) != 0)
    return 1;
  alloc_here ();
  pthread_t t;
  if (pthread_create (&t, NULL, worker, NULL) != 0
      || pthread_join (t, NULL) != 0)
    return 1;
  mp_memprof_stop ();
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.folded "^main;alloc_here 64$" } } */
/* { dg-final { scan-file out.folded "^worker;alloc_here 64$" } } */
/* { dg-final { scan-file-not out.folded "__libc_start|\\m_start\\M|start_thread|clone" } } */
/* { dg-final { scan-file out.txt "\n    alloc_here at \[^\n\]*startup.c:\[0-9\]+\n    worker at \[^\n\]*startup.c:\[0-9\]+\n(\[0-9\]|==)" } } */
/* { dg-final { scan-file-not out.txt "__libc_start|\\m_start\\M|start_thread|clone" } } */
/* { dg-final { scan-file-not out.json "__libc_start|\\m_start\\M|start_thread|clone" } } */
/* { dg-final { scan-file-not out.html "__libc_start|\\m_start\\M|start_thread|clone" } } */
/* { dg-final { scan-pprof out.pb.gz "-traces" " alloc_here\n +main\n-+\\+" } } */
/* { dg-final { scan-pprof out.pb.gz "-traces" " alloc_here\n +worker\n-+\\+" } } */
