/* line.h -- text made on the stack, for the writers that may not take a
   lock nor allocate: a fatal signal's handler (fatal.c), the event log
   in the collector's callbacks (eventlog.c).  Async-signal-safe.  */

#ifndef MEMPROF_LINE_H
#define MEMPROF_LINE_H

#include <stdint.h>
#include <string.h>

struct mp_line
{
  char buf[512];
  size_t n;                     /* bytes in buf; what does not fit is cut */
};

static inline void
mp_line_put (struct mp_line *l, const char *s)
{
  size_t len = strlen (s);
  if (len > sizeof l->buf - l->n)
    len = sizeof l->buf - l->n;
  memcpy (l->buf + l->n, s, len);
  l->n += len;
}

/* V in decimal.  */
static inline void
mp_line_number (struct mp_line *l, int64_t v)
{
  char digits[24], *d = digits + sizeof digits;
  uint64_t u = v < 0 ? -(uint64_t) v : (uint64_t) v;
  *--d = '\0';
  do
    *--d = (char) ('0' + u % 10);
  while ((u /= 10) != 0);
  if (v < 0)
    *--d = '-';
  mp_line_put (l, d);
}

#endif
