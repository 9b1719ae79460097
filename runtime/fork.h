/* fork.h -- a child forked while other threads are inside the runtime
   (fork.c).  */

#ifndef MEMPROF_FORK_H
#define MEMPROF_FORK_H

#include <pthread.h>

/* The steps of a fork, for each file's handler: PREPARE takes its locks,
   in the order fork.c gives; PARENT and CHILD release them, and CHILD
   also abandons what the threads that did not follow were doing.  */
enum mp_fork_step { MP_FORK_PREPARE, MP_FORK_PARENT, MP_FORK_CHILD };
void mp_fork_setup (void);
void mp_fork_mutex (pthread_mutex_t *lock, enum mp_fork_step step);
/* The locks of tracked.c, profile.c, timeline.c and finalise.c,
   which the collector takes holding Boehm's lock, are taken and released
   through these; the collector's callback is bracketed by enter and
   leave.  See fork.c.  */
void mp_collector_lock (pthread_mutex_t *lock);
void mp_collector_unlock (pthread_mutex_t *lock);
void mp_collector_enter (void);
void mp_collector_leave (void);
void mp_tracked_fork (enum mp_fork_step step);
void mp_timeline_fork (enum mp_fork_step step);
void mp_sites_fork (enum mp_fork_step step);
void mp_symbols_fork (enum mp_fork_step step);

#endif
