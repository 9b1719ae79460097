/* Run by interpose.exp, not as a dg test: built without the plugin and
   linked with the runtime by hand, static or shared, the program gets
   its report from interposition alone: ten blocks of 100 bytes, five of
   them freed, at the sites of its calls of malloc and free.  */

#include <stdio.h>
#include <stdlib.h>

void *volatile kept[10];

int
main (void)
{
  /* No buffer: the C library's would be counted too.  */
  setvbuf (stdout, NULL, _IONBF, 0);
  for (int i = 0; i < 10; i++)
    kept[i] = malloc (100);
  for (int i = 0; i < 5; i++)
    free (kept[i]);
  puts ("ok");
  return 0;
}
