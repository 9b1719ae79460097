/* alloc.c -- the runtime's own allocations (alloc.h): the thread's
   quiet depth, and string copies that do not go through the C
   library's strdup, which would call the program's malloc.  */

#include <stdlib.h>
#include <string.h>
#include "internal.h"

__thread int mp_quiet __attribute__ ((tls_model ("initial-exec")));

char *
mp_strndup (const char *s, size_t n)
{
  size_t len = strnlen (s, n);
  char *copy = malloc (len + 1);
  if (copy != NULL)
    {
      memcpy (copy, s, len);
      copy[len] = '\0';
    }
  return copy;
}

char *
mp_strdup (const char *s)
{
  return mp_strndup (s, (size_t) -1);
}
