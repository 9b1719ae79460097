/* Under GC_DEBUG the GC_MALLOC family of macros expands to the
   GC_debug_* functions; each is rewritten, and the note is on the line
   that uses the macro, not inside gc.h.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose" } */

#define GC_DEBUG
#include <gc.h>

void *volatile sink;

int
main (int argc, char **argv)
{
  size_t n = 16 + argc;
  void *p;

  p = GC_MALLOC (n);				/* { dg-message "memprof: GC_debug_malloc -> __mp_GC_debug_malloc" } */
  sink = p;
  p = GC_REALLOC (p, 2 * n);			/* { dg-message "memprof: GC_debug_realloc -> __mp_GC_debug_realloc" } */
  sink = p;
  GC_FREE (p);					/* { dg-message "memprof: GC_debug_free -> __mp_GC_debug_free" } */
  p = GC_MALLOC_ATOMIC (n);			/* { dg-message "memprof: GC_debug_malloc_atomic -> __mp_GC_debug_malloc_atomic" } */
  sink = p;
  p = GC_MALLOC_UNCOLLECTABLE (n);		/* { dg-message "memprof: GC_debug_malloc_uncollectable -> __mp_GC_debug_malloc_uncollectable" } */
  sink = p;
  p = GC_MALLOC_ATOMIC_UNCOLLECTABLE (n);	/* { dg-message "memprof: GC_debug_malloc_atomic_uncollectable -> __mp_GC_debug_malloc_atomic_uncollectable" } */
  sink = p;
  p = GC_MALLOC_IGNORE_OFF_PAGE (n);		/* { dg-message "memprof: GC_debug_malloc_ignore_off_page -> __mp_GC_debug_malloc_ignore_off_page" } */
  sink = p;
  p = GC_MALLOC_ATOMIC_IGNORE_OFF_PAGE (n);	/* { dg-message "memprof: GC_debug_malloc_atomic_ignore_off_page -> __mp_GC_debug_malloc_atomic_ignore_off_page" } */
  sink = p;
  p = GC_STRDUP (argv[0]);			/* { dg-message "memprof: GC_debug_strdup -> __mp_GC_debug_strdup" } */
  sink = p;
  p = GC_STRNDUP (argv[0], 2);			/* { dg-message "memprof: GC_debug_strndup -> __mp_GC_debug_strndup" } */
  sink = p;
  return 0;
}
