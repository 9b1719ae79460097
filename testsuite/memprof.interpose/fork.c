/* Interposition across fork: threads allocate without the plugin's
   help (through a pointer) while the program forks; each child counts
   its own such allocations exactly, and exits, with no lock of the
   runtime's left held by a thread the fork did not copy.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1,report=/dev/null" } */

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/mptest.h"

void *(*volatile indirect) (size_t) = malloc;
void (*volatile indirect_free) (void *) = free;
static _Atomic int stop;

/* Allocations at ever new return addresses would make new sites; these
   make a few, over and over, through the table's lock too.  */
static void *
churn (void *arg)
{
  (void) arg;
  while (!stop)
    indirect_free (indirect (64));
  return NULL;
}

static int
child (void)
{
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
  for (int i = 0; i < 10; i++)
    indirect_free (indirect (100));
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocateOK - s0.numAllocateOK, 10);
  CHECK_EQ (s1.bytesAllocated - s0.bytesAllocated, 1000);
  CHECK_EQ (s1.bytesUsed, s0.bytesUsed);
  return mpt_failures;
}

int
main (void)
{
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create (&t[i], NULL, churn, NULL);
  for (int i = 0; i < 20; i++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        _exit (child ());
      int status;
      CHECK (waitpid (pid, &status, 0) == pid);
      CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }
  stop = 1;
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
/* { dg-timeout 120 } */
