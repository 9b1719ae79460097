/* messages.h -- what the runtime says on stderr (messages.c).
   internal.h includes it.  */

#ifndef MEMPROF_MESSAGES_H
#define MEMPROF_MESSAGES_H

/* A warning, one line on stderr after `memprof: '; and a GC message,
   if FLAG is among the verbose flags.  */
void mp_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
void mp_gc_message (long flag, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* A warning as mp_warn's, without stdio: for the collector's callbacks.  */
void mp_warn_raw (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

#endif
