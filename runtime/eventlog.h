/* eventlog.h -- the event log (eventlog.c): OCaml's eventlog, in the
   Chrome trace-event format.

   Each place that makes an event tests one global first, so that a log
   that is off costs a predictable branch; no allocation path makes
   events.  A span's end is recorded when its beginning was, so that the
   log never holds half a span: mp_ev_begin says whether it recorded,
   and mp_ev_end takes that answer.  */

#ifndef MEMPROF_EVENTLOG_H
#define MEMPROF_EVENTLOG_H

#include <stdatomic.h>
#include <stddef.h>
#include "internal.h"

/* The log's state: OFF (never opened, or dropped after a write error),
   RUNNING, PAUSED (mp_eventlog_pause), CLOSED at exit.  Changed by
   mp_eventlog_* with atomic exchanges; read by anyone.  */
enum { MP_EV_OFF, MP_EV_RUNNING, MP_EV_PAUSED, MP_EV_CLOSED };
extern atomic_int mp_eventlog_state;

/* The spans and instants of the log, with their names (eventlog.c).  */
enum mp_event
{
  MP_EV_FORCED,                 /* a collection the runtime forced */
  MP_EV_COMPACTION,             /* mp_compact's, or max_overhead's */
  MP_EV_FINALISE,               /* finalisers run (finalise.c) */
  MP_EV_ALLOC_MINOR, MP_EV_ALLOC_MAJOR, MP_EV_PROMOTE,  /* the tracker's */
  MP_EV_DEALLOC_MINOR, MP_EV_DEALLOC_MAJOR,             /* callbacks */
  MP_EV_EXIT_REPORT,            /* the report and its forms at exit */
  MP_EV_WRITE_TEXT, MP_EV_WRITE_PPROF, MP_EV_WRITE_FOLDED, MP_EV_WRITE_JSON,
  MP_EV_COUNT
};

int mp_ev_begin_slow (enum mp_event e, const char *why);
void mp_ev_end_slow (enum mp_event e);

/* Begin span E; 1 if the log records it, to give mp_ev_end.  */
static inline int
mp_ev_begin (enum mp_event e)
{
  if (MP_LIKELY (atomic_load_explicit (&mp_eventlog_state,
                                       memory_order_relaxed) != MP_EV_RUNNING))
    return 0;
  return mp_ev_begin_slow (e, NULL);
}

/* Begin the span of a collection the runtime forces, for WHY (a static
   string: "mp_full_major", "max_overhead", ...).  */
static inline int
mp_ev_forced (const char *why)
{
  if (MP_LIKELY (atomic_load_explicit (&mp_eventlog_state,
                                       memory_order_relaxed) != MP_EV_RUNNING))
    return 0;
  return mp_ev_begin_slow (MP_EV_FORCED, why);
}

/* End span E, begun with mp_ev_begin's answer BEGUN.  */
static inline void
mp_ev_end (enum mp_event e, int begun)
{
  if (MP_UNLIKELY (begun))
    mp_ev_end_slow (e);
}

/* Whether the log is open, recording or paused: the collector keeps its
   timestamps then (mp_eventlog_gc).  */
static inline int
mp_eventlog_open (void)
{
  int s = atomic_load_explicit (&mp_eventlog_state, memory_order_relaxed);
  return MP_UNLIKELY (s == MP_EV_RUNNING || s == MP_EV_PAUSED);
}

/* Boehm's collection event EVENT (generations.c, under the GC lock);
   FULL if a full collection is pending.  A collection's spans are
   written whole at its RECLAIM_END.  */
void mp_eventlog_gc (int event, int full);

/* Boehm's heap grew to BYTES (generations.c, under the GC lock).  */
void mp_eventlog_heap_growth (size_t bytes);

/* Open the log MEMPROF's eventlog= names, if any (init.c).  */
void mp_eventlog_setup (void);

/* The calling thread exits (thread.c): its events go to the file.  */
void mp_eventlog_thread_exit (void);

/* A fatal signal (fatal.c): write what the threads' buffers hold and
   can be taken now.  Async-signal-safe.  */
void mp_eventlog_dying (void);

/* See fork.c: the child writes its own log.  */
void mp_eventlog_fork (enum mp_fork_step step);

#endif
