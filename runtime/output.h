/* output.h -- the report and its other forms, written at exit
   (output.c), and the writers of the forms.  */

#ifndef MEMPROF_OUTPUT_H
#define MEMPROF_OUTPUT_H

#include <stdio.h>
#include <sys/types.h>

extern pid_t mp_start_pid;      /* the process that started the runtime:
                                   set once at start, then only read */

/* Write the report and the forms MEMPROF asks for (atexit).  */
void mp_report_at_exit (void);

/* Remove the temporary files of the forms being written, if any: the
   process dies by a signal (fatal.c).  Async-signal-safe.  */
void mp_output_remove_temps (void);

/* json.c, folded.c, pprof.c: each writes its form of the report to OUT
   and returns 0, or -1 (errno set) if it ran out of memory.  */
int mp_write_json (FILE *out);
int mp_write_folded (FILE *out);
int mp_write_pprof (FILE *out);
/* An estimate as the text report prints it with "%.0f": the rounding
   dust of its sums, such as a live figure of -1e-12 bytes, as 0, never
   "-0".  */
static inline double
mp_shown (double v)
{
  return v > -0.5 && v < 0.5 ? 0 : v;
}

/* html.c: the HTML page up to where the JSON report goes, to OUT; the
   rest of the page, to write after the JSON.  */
const char *mp_html_head (FILE *out);

#endif
