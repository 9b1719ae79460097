/* A program whose only use of Boehm is memprof.h's: the plugin sees
   the calls that start Boehm, and makes the unit need libgc
   (plugin/site.cc's mp_need_libgc), so that they work as before libgc
   was made optional (runtime/gcweak.h): each collection is counted
   (mp_full_major makes two: memprof.h), and an alarm runs at the end
   of each.  Linked --as-needed, as Debian's gcc links.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -Wl,--as-needed" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include "../lib/mptest.h"
#include "../lib/mpmaps.h"

static int alarms;

static void
note (void *data)
{
  (void) data;
  alarms++;
}

int
main (void)
{
  mp_full_major ();
  mp_full_major ();
  struct mp_stat st;
  mp_quick_stat (&st);
  CHECK_EQ (st.major_collections, 4);
  CHECK_EQ (st.forced_major_collections, 2);
  struct mp_alarm *a = mp_create_alarm (note, NULL);
  mp_full_major ();
  mp_delete_alarm (a);
  CHECK_EQ (alarms, 2);
  CHECK_EQ (mpt_mapped ("/libgc.so"), 1);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
