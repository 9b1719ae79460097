/* Run by security.exp, not as a dg test: a set-user-ID root copy of
   this program, started by an unprivileged user with a MEMPROF that
   names root's files, must write none of them, print no report and
   take none of MEMPROF's settings (verbose keeps its default).  It says
   how it ran, so that the test knows the set-user-ID bit took effect.  */

#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <memprof.h>

void *volatile kept[20];	/* live at exit, not leaked */

int
main (void)
{
  for (int i = 0; i < 20; i++)
    kept[i] = malloc (100 + i);
  struct mp_control c;
  mp_get (&c);
  printf ("ok euid=%d ruid=%d secure=%lu verbose=%#lx\n", (int) geteuid (),
          (int) getuid (), getauxval (AT_SECURE), c.verbose);
  return 0;
}
