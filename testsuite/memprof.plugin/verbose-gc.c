/* Every Boehm GC allocation function is rewritten.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose" } */

#include <gc.h>

void *volatile sink;

int
main (int argc, char **argv)
{
  size_t n = 16 + argc;
  void *p;

  p = GC_malloc (n);				/* { dg-message "memprof: GC_malloc -> __mp_GC_malloc" } */
  sink = p;
  p = GC_realloc (p, 2 * n);			/* { dg-message "memprof: GC_realloc -> __mp_GC_realloc" } */
  sink = p;
  GC_free (p);					/* { dg-message "memprof: GC_free -> __mp_GC_free" } */
  p = GC_malloc_atomic (n);			/* { dg-message "memprof: GC_malloc_atomic -> __mp_GC_malloc_atomic" } */
  sink = p;
  p = GC_malloc_uncollectable (n);		/* { dg-message "memprof: GC_malloc_uncollectable -> __mp_GC_malloc_uncollectable" } */
  sink = p;
  p = GC_malloc_atomic_uncollectable (n);	/* { dg-message "memprof: GC_malloc_atomic_uncollectable -> __mp_GC_malloc_atomic_uncollectable" } */
  sink = p;
  p = GC_malloc_ignore_off_page (n);		/* { dg-message "memprof: GC_malloc_ignore_off_page -> __mp_GC_malloc_ignore_off_page" } */
  sink = p;
  p = GC_malloc_atomic_ignore_off_page (n);	/* { dg-message "memprof: GC_malloc_atomic_ignore_off_page -> __mp_GC_malloc_atomic_ignore_off_page" } */
  sink = p;
  p = GC_strdup (argv[0]);			/* { dg-message "memprof: GC_strdup -> __mp_GC_strdup" } */
  sink = p;
  p = GC_strndup (argv[0], 2);			/* { dg-message "memprof: GC_strndup -> __mp_GC_strndup" } */
  sink = p;
  return 0;
}
