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

/* How an output is opened, for the event log too (eventlog.c): NAME
   opened to be written in place, if it is a character device, a FIFO,
   or the file stdout or stderr is on, or else -1; and a new file beside
   NAME, NAME.tmpXXXXXX in TEMP (SIZE bytes), made with O_EXCL and mode
   0666 less the umask, or -1 with errno set.  */
int mp_output_open_in_place (const char *name);
int mp_output_create_beside (const char *name, char *temp, size_t size);

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
