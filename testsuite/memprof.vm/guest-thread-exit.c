/* A VM thread that ends inside a guest procedure (pthread_exit, as a
   guest "exit-thread" primitive would) leaves nothing running: its
   thread record, which a later thread reuses, forgets the procedure, so
   that the later thread's 100 GC allocations count at their own site,
   not at the procedure.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#define GC_THREADS
#include <gc.h>
#include <pthread.h>
#include "../lib/mptest.h"

static const struct mp_vm_site *proc;
void *volatile sink;
static unsigned plain_line;

static void *
guest_thread (void *arg)
{
  (void) arg;
  *mp_vm_running () = proc;
  sink = GC_MALLOC (16);
  pthread_exit (NULL);
}

static void *
plain_thread (void *arg)
{
  (void) arg;
  for (int i = 0; i < 100; i++)
    {
      sink = GC_MALLOC (32); plain_line = __LINE__;
    }
  return NULL;
}

static int
guest_count (const struct mp_site_info *i, void *data)
{
  if (strcmp (i->function, "exit-in-me") == 0)
    *(long long *) data += (long long) i->stats.numAllocate;
  return 0;
}

int
main (void)
{
  GC_INIT ();
  proc = mp_vm_site ("exit-in-me", "guest.scm", 1, MP_VM_PROCEDURE);
  pthread_t t;
  pthread_create (&t, NULL, guest_thread, NULL);
  pthread_join (t, NULL);
  pthread_create (&t, NULL, plain_thread, NULL);
  pthread_join (t, NULL);
  long long in_proc = 0;
  mp_site_foreach (guest_count, &in_proc);
  CHECK_EQ (in_proc, 1);
  CHECK_EQ (SITE (plain_line).s.numAllocate, 100);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
