/* init.c -- starting the runtime.

   The runtime starts from a constructor, or from the first call into it
   if a constructor of the program allocates earlier.  Starting reads
   MEMPROF and arranges for the report at exit.  Boehm itself is started
   only when the program first uses the GC family (generations.c), so a
   malloc-only program pays nothing for it.

   MEMPROF is not read by a process that must not trust its environment:
   one the kernel started in secure mode (AT_SECURE: set-user-ID,
   set-group-ID, or given capabilities), which then gets no report at
   all (config.c's mp_config_secure), and one whose program defined
   mp_ignore_environment (memprof.h), which gets the defaults.  */

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "timeline.h"
#include "entry.h"
#include "libc.h"
#include "interpose.h"
#include "config.h"
#include "eventlog.h"
#include "fatal.h"
#include "init.h"
#include "output.h"
#include "fork.h"
#include "control.h"
#include "sample.h"
#include "generations.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* See init.h.  */
uint64_t mp_random_key;

/* memprof.h's, read through a weak reference: null unless the program
   defines it.  */
extern const int mp_ignore_environment __attribute__ ((weak));

/* MEMPROF, or NULL if the process must not read it (see above).  */
static const char *
memprof_variable (void)
{
  if (getauxval (AT_SECURE) != 0)
    {
      mp_config_secure (&mp_config);
      return NULL;
    }
  if (&mp_ignore_environment != NULL && mp_ignore_environment)
    return NULL;
  return secure_getenv ("MEMPROF");
}

static void
start (void)
{
  mp_quiet_begin ();            /* what starting allocates is ours */
  mp_start_pid = getpid ();
  mp_timeline_start ();
  mp_config_parse (memprof_variable (), &mp_config, mp_control_preset,
                   mp_warn);
  mp_config_settle (&mp_config);
  uint64_t seed;
  if (getrandom (&seed, sizeof seed, GRND_NONBLOCK) != sizeof seed)
    seed = (uint64_t) time (NULL) * 2654435761u ^ (uint64_t) getpid ();
  mp_random_key = seed;
  mp_libc_setup (seed);
  mp_sample_setup ();
  mp_eventlog_setup ();         /* its end at exit comes after the report */
  if (atexit (mp_report_at_exit) != 0)
    mp_warn ("cannot register the exit report");
  mp_fork_setup ();
  mp_fatal_setup ();
  mp_interpose_setup (mp_config.interpose != 0);
  mp_quiet_end ();
}

void
mp_init (void)
{
  pthread_once (&init_once, start);
}

/* Objects of libmemprof.a that no reference of the program's takes out
   of it: the VM interface, which a VM reaches through weak references
   (memprof.h's MEMPROF_OPTIONAL), and the C++ operators and dlclose,
   which libraries built without the plugin call by their own names.
   These references take them, wherever the runtime is linked, as this
   file always is.  */
__attribute__ ((used)) static const void *const linked_always[] = {
  (const void *) mp_vm_site, (const void *) mp_vm_thread,
  (const void *) mp_set_frame_provider, (const void *) __mp__ZdlPv,
  (const void *) dlclose,
};

/* Before the program's own constructors, which may start Boehm: fork.c
   needs its handlers registered before Boehm's.  */
__attribute__ ((constructor (101))) static void
init_at_load (void)
{
  mp_init ();
  mp_gc_setup_if_started ();
}
