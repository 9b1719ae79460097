/* first-sample-dlopen.c's library: its constructor, under the dynamic
   loader's lock, lets the other thread make the process's first sample,
   then allocates a block that is sampled too.  */
#include <stdlib.h>
#include <unistd.h>

extern void first_sample_lib_ready (void);
void *volatile first_sample_kept;

__attribute__ ((constructor)) static void
init (void)
{
  first_sample_lib_ready ();
  usleep (200000);
  first_sample_kept = malloc (64 << 20);
}
