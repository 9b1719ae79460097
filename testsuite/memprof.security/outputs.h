/* outputs.h -- what the tests of memprof.security/ that write files
   share: a good file at a name, and a file-size limit.  */

#ifndef OUTPUTS_H
#define OUTPUTS_H

#include <stdio.h>
#include <sys/resource.h>

/* NAME holding one line, "good NAME".  */
static inline void
good_file (const char *name)
{
  FILE *f = fopen (name, "w");
  if (f == NULL)
    perror (name);
  else
    {
      fprintf (f, "good %s\n", name);
      fclose (f);
    }
}

/* No file may grow past BYTES (RLIMIT_FSIZE) from now on.  */
static inline void
limit_file_size (rlim_t bytes)
{
  struct rlimit r;
  getrlimit (RLIMIT_FSIZE, &r);
  r.rlim_cur = bytes;
  if (setrlimit (RLIMIT_FSIZE, &r) != 0)
    perror ("setrlimit");
}

#endif
