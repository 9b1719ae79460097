/* timeline.c -- the heap over time, for the HTML report's chart: a
   point (time, heap words, live words, collections so far) at the end of
   each collection, in bounded memory.

   Design.  The points fill a fixed array.  When it is full, every other
   point is dropped and `stride` doubles: from then on one collection in
   `stride` is recorded.  The points stay evenly spread over the
   collections, at most MP_TIMELINE_POINTS of them, whatever the run's
   length.  Live words are the heap less its free bytes just after the
   collection: Boehm's own view of what it kept.

   The array is malloc'ed at start, not static: Boehm scans the
   program's data and bss as roots, and their size sets how often it
   collects (see output.c's BUFFER_SIZE).  Without memory there is no
   chart.

   The collector writes at GC_EVENT_RECLAIM_END, holding Boehm's lock;
   the report reads.  `lock` guards everything here; nothing is called
   under it.  */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"
#include "timeline.h"
#include "generations.h"
#include "fork.h"

#include "gcweak.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mp_timeline_point *points; /* MP_TIMELINE_POINTS; set once */
static size_t n_points;
static uint64_t stride = 1;     /* record one collection in `stride` */
static uint64_t seen;           /* collections since the last recorded */
static struct timespec start;   /* set once, by mp_timeline_start */

void
mp_timeline_start (void)
{
  clock_gettime (CLOCK_MONOTONIC, &start);
  points = malloc (MP_TIMELINE_POINTS * sizeof *points);
}

double
mp_uptime (void)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return (double) (now.tv_sec - start.tv_sec)
         + 1e-9 * (double) (now.tv_nsec - start.tv_nsec);
}

/* Keep points 0, 2, 4, ...: half the array.  */
static void
thin (void)
{
  for (size_t i = 0; 2 * i < n_points; i++)
    points[i] = points[2 * i];
  n_points = (n_points + 1) / 2;
  stride *= 2;
}

void
mp_timeline_note (void)
{
  size_t heap = GC_get_heap_size (), free_bytes = GC_get_free_bytes ();
  struct mp_timeline_point p = {
    mp_uptime (), (double) (heap / sizeof (void *)),
    (double) ((heap > free_bytes ? heap - free_bytes : 0) / sizeof (void *)),
    mp_get_counter (&mp_minor_collections),
    mp_get_counter (&mp_major_collections)
  };
  if (points == NULL)
    return;
  mp_collector_lock (&lock);
  if (++seen >= stride)
    {
      seen = 0;
      if (n_points == MP_TIMELINE_POINTS)
        thin ();
      points[n_points++] = p;
    }
  mp_collector_unlock (&lock);
}

size_t
mp_timeline (struct mp_timeline_point out[MP_TIMELINE_POINTS])
{
  mp_collector_lock (&lock);
  size_t n = n_points;
  memcpy (out, points, n * sizeof *out);
  mp_collector_unlock (&lock);
  return n;
}

/* See fork.c.  */
void
mp_timeline_fork (enum mp_fork_step step)
{
  mp_fork_mutex (&lock, step);
}
