/* timeline.h -- the heap's size and the collections over time
   (timeline.c), for the HTML and JSON reports' charts.  */

#ifndef MEMPROF_TIMELINE_H
#define MEMPROF_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#define MP_TIMELINE_POINTS 1024
struct mp_timeline_point
{
  double t;                     /* seconds since the runtime started */
  double heap_words, live_words;
  int64_t minor, major;         /* collections so far */
};

void mp_timeline_start (void);
double mp_uptime (void);        /* seconds since the runtime started */
void mp_timeline_note (void);   /* at a collection's end */

/* Copy the points so far into OUT; their number.  */
size_t mp_timeline (struct mp_timeline_point out[MP_TIMELINE_POINTS]);

#endif
