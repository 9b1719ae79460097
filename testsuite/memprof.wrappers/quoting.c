/* quoting.c -- prints the macro STR that the test passes with spaces,
   quotes, a dollar and a backslash in it, and its arguments.  */
#include <stdio.h>

int
main (int argc, char **argv)
{
  printf ("[%s]\n", STR);
  for (int i = 1; i < argc; i++)
    printf ("[%s]\n", argv[i]);
  return 0;
}
