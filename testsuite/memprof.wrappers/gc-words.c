/* gc-words.c -- six GC blocks of 8 bytes, where the program's only use
   of Boehm is the calls that the plugin rewrites: what makes it need
   libgc is the plugin's reference (runtime/gcweak.h), and the wrapper's
   -lgc under --as-needed.  */
#include <gc.h>
#include <stdio.h>

void *volatile kept[6];

int
main (void)
{
  for (int i = 0; i < 6; i++)
    kept[i] = GC_MALLOC (8);
  puts ("gc ok");
  return 0;
}
