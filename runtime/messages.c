/* messages.c -- what the runtime says on stderr: warnings, and the GC
   messages of the verbose flags.

   GC messages are printed from the collector's callbacks, with the world
   stopped: another thread may be stopped holding stderr's stdio lock, so
   they are formatted on the stack and written with one write(2).  */

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "internal.h"
#include "control.h"

void
mp_warn (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs ("memprof: ", stderr);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
}

void
mp_gc_message (long flag, const char *fmt, ...)
{
  if (!(atomic_load_explicit (&mp_verbose, memory_order_relaxed) & flag))
    return;
  char buf[256] = "memprof: ";
  size_t at = sizeof "memprof: " - 1;
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (buf + at, sizeof buf - at - 1, fmt, ap);
  va_end (ap);
  if (n < 0)
    return;
  at += (size_t) n < sizeof buf - at - 1 ? (size_t) n : sizeof buf - at - 2;
  buf[at++] = '\n';
  ssize_t w = write (STDERR_FILENO, buf, at);
  (void) w;                     /* nowhere to report a failed message */
}
