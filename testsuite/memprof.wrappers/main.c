/* main.c -- the program of the wrappers' test projects: six copies of
   an 8-byte word, made by the library (words.c); no allocation call of
   its own.  The copies are printed, so that no optimisation, at link
   time either, can remove their allocations.  */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include "words.h"

int
main (void)
{
  for (int i = 0; i < 6; i++)
    {
      char *w = word_copy ("memprof");
      if (w == NULL)
        return 1;
      printf ("%d %s\n", i, w);
      free (w);
    }
  return 0;
}
