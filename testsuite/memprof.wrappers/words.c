/* words.c -- the library of the wrappers' test projects, and their only
   allocation: each build system makes it an archive (or a shared object)
   that the program links after its own objects.  */
#include <stdlib.h>
#include <string.h>
#include "words.h"

char *
word_copy (const char *w)
{
  size_t n = strlen (w) + 1;
  char *c = malloc (n);
  if (c != NULL)
    memcpy (c, w, n);
  return c;
}
