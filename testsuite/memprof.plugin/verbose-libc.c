/* Every C library allocation function is rewritten, and `verbose' notes
   each site on the line of the call.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose" } */

#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <malloc.h>

void *volatile sink;

int
main (int argc, char **argv)
{
  size_t n = 16 + argc;
  void *p, *q;
  char *s;

  p = malloc (n);			/* { dg-message "memprof: malloc -> __mp_malloc" } */
  sink = p;
  p = realloc (p, 2 * n);		/* { dg-message "memprof: realloc -> __mp_realloc" } */
  sink = p;
  p = reallocarray (p, 3, n);		/* { dg-message "memprof: reallocarray -> __mp_reallocarray" } */
  sink = p;
  free (p);				/* { dg-message "memprof: free -> __mp_free" } */
  p = calloc (n, 4);			/* { dg-message "memprof: calloc -> __mp_calloc" } */
  sink = p;
  s = strdup (argv[0]);			/* { dg-message "memprof: strdup -> __mp_strdup" } */
  sink = s;
  s = strndup (argv[0], 2);		/* { dg-message "memprof: strndup -> __mp_strndup" } */
  sink = s;
  p = aligned_alloc (64, 128);		/* { dg-message "memprof: aligned_alloc -> __mp_aligned_alloc" } */
  sink = p;
  p = memalign (64, n);			/* { dg-message "memprof: memalign -> __mp_memalign" } */
  sink = p;
  p = valloc (n);			/* { dg-message "memprof: valloc -> __mp_valloc" } */
  sink = p;
  if (posix_memalign (&q, 64, n) != 0)	/* { dg-message "memprof: posix_memalign -> __mp_posix_memalign" } */
    return 1;
  sink = q;
  n = malloc_usable_size (q);		/* { dg-message "memprof: malloc_usable_size -> __mp_malloc_usable_size" } */
  return n == 0;
}
