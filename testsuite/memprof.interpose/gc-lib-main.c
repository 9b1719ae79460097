/* Run by interpose.exp: built with the plugin, with no GC call of its
   own, but linked with gc-lib.c, which uses Boehm, built without the
   plugin.  libgc is in the process from the start, brought by the
   library, and the runtime finds it there (runtime/gcweak.h): the
   program's own allocations count exactly, in it and in a child it
   forks, and Boehm's use, which no rewritten call made, is left to
   Boehm, as it was when the runtime loaded libgc itself.  */

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/mptest.h"
#include "../lib/mpmaps.h"

void *gclib_alloc (unsigned long n);
void gclib_collect (void);

void *volatile kept[10];
void *volatile sink;

int
main (void)
{
  setvbuf (stdout, NULL, _IONBF, 0);
  for (int i = 0; i < 1000; i++)
    kept[i % 10] = gclib_alloc (16);
  gclib_collect ();
  for (int i = 0; i < 10; i++)
    {
      sink = malloc (100);
      free (sink);
    }
  pid_t pid = fork ();
  if (pid == 0)
    {
      sink = malloc (50);
      _exit (0);
    }
  int status;
  CHECK (waitpid (pid, &status, 0) == pid && WIFEXITED (status)
         && WEXITSTATUS (status) == 0);
  CHECK_EQ (mpt_mapped ("/libgc.so"), 1);
  return mpt_done ();
}
