/* Bad input: a program without libgc calls memprof.h's collections,
   finalisers and alarms from code the plugin did not see (through
   pointers), so nothing made the program need libgc
   (runtime/gcweak.h).  There is no GC heap: a collection collects
   nothing and returns, mp_finalise has no GC block to watch (one line,
   EINVAL), and mp_create_alarm no collection to run it at (one line,
   NULL and ENOSYS); no crash at a null function, and libgc stays out.
   The same calls seen by the plugin make the program need libgc
   (no-libgc-seen.c).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -Wl,--as-needed" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <memprof.h>
#include "../lib/mptest.h"
#include "../lib/mpmaps.h"

void *volatile sink;
static void (*volatile collect) (void) = mp_full_major;
static void (*volatile minor) (void) = mp_minor;
static void (*volatile finalise) (void (*) (void *, void *), void *, void *)
  = mp_finalise;
static struct mp_alarm *(*volatile alarm_of) (void (*) (void *), void *)
  = mp_create_alarm;

static void
finaliser (void *obj, void *data)
{
  (void) obj;
  (void) data;
}

static void
ring (void *data)
{
  (void) data;
}

int
main (void)
{
  sink = malloc (10);
  collect ();
  minor ();
  fprintf (stderr, "collected\n");
  errno = 0;
  finalise (finaliser, NULL, NULL);
  CHECK_EQ (errno, EINVAL);
  errno = 0;
  CHECK (alarm_of (ring, NULL) == NULL);
  CHECK_EQ (errno, ENOSYS);
  CHECK (!mpt_mapped ("/libgc.so"));   /* not this program's name */
  free (sink);
  return mpt_done ();
}

/* { dg-output "^collected\nmemprof: mp_finalise of \\(nil\\): no GC heap \\(libgc was not in the process when it started\\): ignored\nmemprof: mp_create_alarm: no GC heap \\(libgc was not in the process when it started\\), so no collection to run it: ignored\nok\n$" } */
