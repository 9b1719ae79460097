/* The call stack accessors: frames innermost first, the allocating
   function at 0; callstack_size bounds the length (0: no frames); a bad
   index is -1 with EINVAL; mp_callstack_print's format.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */

#include <errno.h>
#include "../lib/mptest.h"

static void *volatile sink;
static volatile size_t length;
static volatile int bad, print;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  struct mp_frame f;
  length = mp_callstack_length (a->callstack);
  errno = 0;
  bad += mp_callstack_frame (a->callstack, length, &f) != -1 || errno != EINVAL;
  if (length >= 2)
    {
      bad += mp_callstack_frame (a->callstack, 0, &f) != 0
             || strcmp (f.function, "alloc_here") != 0 || f.inlined
             || f.file == NULL || strstr (f.file, "callstack-api.c") == NULL;
      bad += mp_callstack_frame (a->callstack, 1, &f) != 0
             || strcmp (f.function, "caller") != 0;
    }
  if (print)
    mp_callstack_print (stdout, a->callstack);
  return NULL;
}

static __attribute__ ((noinline)) void
alloc_here (void)
{
  sink = malloc (16);
  free (sink);
  __asm__ volatile ("");
}

static __attribute__ ((noinline)) void
caller (void)
{
  alloc_here ();
  __asm__ volatile ("");
}

static void
run_with (size_t callstack_size)
{
  struct mp_tracker tr = { .alloc_major = on_alloc };
  CHECK_EQ (mp_memprof_start (1, callstack_size, &tr), 0);
  caller ();
  CHECK_EQ (mp_memprof_stop (), 0);
}

int
main (void)
{
  run_with (0);
  CHECK_EQ (length, 0);
  run_with (2);
  CHECK_EQ (length, 2);
  run_with (64);
  CHECK (length >= 3);          /* main, and libc's start below it */
  CHECK_EQ (bad, 0);
  CHECK_EQ (mp_callstack_length (NULL), 0);
  print = 1;
  run_with (2);
  return mpt_done ();
}

/* { dg-output "#0  alloc_here at \[^\n\]*callstack-api.c:\[0-9\]+\n#1  caller at \[^\n\]*callstack-api.c:\[0-9\]+\nok" } */
