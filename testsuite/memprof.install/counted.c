/* Built by install.exp with the installed plugin, header and library,
   found through pkg-config: seven allocations of 10 bytes at one site.  */
#include <stdio.h>
#include <stdlib.h>
#include <memprof.h>

void *volatile sink;

int
main (void)
{
  for (int i = 0; i < 7; i++)
    {
      sink = malloc (10);
      free (sink);
    }
  mp_report_per_call_statistics (stdout);
  return 0;
}
