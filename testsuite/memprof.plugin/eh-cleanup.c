/* With -fexceptions, rewriting must keep the EH edges of the CFG intact
   (this used to crash RTL expansion under -fchecking).  A malloc declared
   without nothrow that may throw into a cleanup is left alone.  */
/* { dg-do compile } */
/* { dg-options "-fexceptions -fno-builtin -fchecking -fplugin-arg-memprof-verbose" } */
/* ASan's use-after-scope check would wrap P's scope in a cleanup of its
   own (unpoisoning P), which the malloc that initialises P may throw
   into: that malloc would be left alone too.  */
/* { dg-additional-options "-fno-sanitize-address-use-after-scope" } */

typedef __SIZE_TYPE__ size_t;
void *malloc (size_t);
void free (void *);
extern void *GC_malloc (size_t);

void *volatile sink;

static void
release (void **p)
{
  free (*p);		/* { dg-message "memprof: free -> __mp_free" } */
}

void
f (void)
{
  void *p __attribute__ ((cleanup (release))) = malloc (8);	/* { dg-message "memprof: malloc -> __mp_malloc" } */
  sink = p;
  sink = malloc (16);		/* { dg-bogus "memprof" } */
  sink = GC_malloc (16);	/* { dg-message "memprof: GC_malloc -> __mp_GC_malloc" } */
}
