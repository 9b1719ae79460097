/* The __builtin_ spellings are recognised by their function code, and
   the site records the name as written.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose" } */

void *volatile sink;

int
main (int argc, char **argv)
{
  __SIZE_TYPE__ n = 16 + argc;
  void *p;

  p = __builtin_malloc (n);		/* { dg-message "memprof: __builtin_malloc -> __mp_malloc" } */
  sink = p;
  p = __builtin_realloc (p, 2 * n);	/* { dg-message "memprof: __builtin_realloc -> __mp_realloc" } */
  sink = p;
  __builtin_free (p);			/* { dg-message "memprof: __builtin_free -> __mp_free" } */
  p = __builtin_calloc (n, 2);		/* { dg-message "memprof: __builtin_calloc -> __mp_calloc" } */
  sink = p;
  p = __builtin_strdup (argv[0]);	/* { dg-message "memprof: __builtin_strdup -> __mp_strdup" } */
  sink = p;
  p = __builtin_strndup (argv[0], 1);	/* { dg-message "memprof: __builtin_strndup -> __mp_strndup" } */
  sink = p;
  p = __builtin_aligned_alloc (32, 64);	/* { dg-message "memprof: __builtin_aligned_alloc -> __mp_aligned_alloc" } */
  sink = p;
  return 0;
}
