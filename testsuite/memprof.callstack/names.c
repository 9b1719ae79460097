/* Functions that GCC emits under names of its own, for callstack.exp,
   which compares their call stacks with gdb's backtrace: gdb names each
   frame as its DWARF does, not as the symbol table does.  Built with -g
   at each torture flag set, and at -O2 with -flto, one partition per
   function, which builds it with NAMES_NO_NESTED: gdb 13 finds no
   DWARF function for a nested function there, and shows its symbol,
   inner.0.lto_priv.  Against the symbol table (-O2, and -flto for
   lto_priv), gdb shows:

     inner.0                  inner       (a GNU C nested function)
     konst.constprop.0        konst       (a constant argument propagated)
     sra.constprop.0.isra.0   sra         (a struct argument made scalar)
     split.part.0             split       (the tail that ipa-split cut off)
     cold_path.cold           cold_path   (the part moved to .text.unlikely)
     helper.lto_priv.0        helper      (a static promoted across
                                           LTO partitions)

   except that with -flto GCC gives a clone's DWARF the clone's own
   linkage name, which gdb shows: konst.constprop.0,
   split.part.0.lto_priv.0 (and the plugin names the clone's sites so,
   site.cc).
   And libc's symbols without their versions: _IO_file_overflow, not
   _IO_file_overflow@@GLIBC_2.2.5, in the stack of the buffer that
   fprintf allocates (gdb reads libc's symbol table alone there:
   callstack.exp turns its separate debugging information off).
   Where a program has no DWARF (-g0), gdb 13 shows its Ada decoder's
   reading of a C symbol (inner, konst.constprop, cold_path[cold]; it
   would show my__func as my.func): memprof shows the symbol, without
   its version.  Each allocation is printed by print-stack.h's
   callback.  */

#include <stdio.h>
#include <stdlib.h>
#include "print-stack.h"

void *volatile sink;

/* Called with constant arguments only: konst.constprop.0 at -O2.  */
static __attribute__ ((noinline)) void
konst (int n, int k)
{
  for (int i = 0; i < k; i++)
    {
      sink = malloc (n + i);
      free (sink);
    }
}

/* One field of a struct passed by reference: sra...isra.0.  */
struct big { int a[16]; int n; };
static __attribute__ ((noinline)) void
sra (struct big *b)
{
  sink = malloc (b->n);
  free (sink);
}

/* A test that its two callers inline, and a long rest: split.part.0.  */
static void
split (int n)
{
  if (n < 1000)
    return;
  char *p = malloc (n);
  for (int i = 0; i < n; i++)
    p[i] = (char) (i * 7);
  for (int i = 1; i < n; i++)
    p[i] ^= p[i - 1];
  sink = p;
  if (p[n / 2] == 42)
    printf ("%d %d\n", p[n / 3], p[n / 5]);
  free (p);
}

static __attribute__ ((noinline, cold)) void
complain (int n)
{
  fprintf (stderr, "names.c: %d\n", n);
}

/* The branch that calls a cold function: cold_path.cold.  */
static __attribute__ ((noinline)) void
cold_path (int n)
{
  if (n == 1)
    {
      sink = malloc (n + 2);
      complain (n);
      free (sink);
    }
  sink = malloc (n + 1);
  free (sink);
}

/* Called from another function's LTO partition: helper.lto_priv.0.  */
static __attribute__ ((noinline)) void
helper (int n)
{
  sink = malloc (n);
  free (sink);
}

__attribute__ ((noinline)) void
call_helper (int n)
{
  helper (n);
  __asm__ volatile ("");
}

int
main (int argc, char **argv)
{
  (void) argv;
  /* The only buffer of stdio allocated while the tracker runs is
     OUT's, in fprintf: stdout's is static, OUT's FILE made before.  */
  static char buffer[BUFSIZ];
  setvbuf (stdout, buffer, _IOFBF, sizeof buffer);
  FILE *out = fopen ("/dev/null", "w");
  struct mp_tracker tr = mp_null_tracker;
  tr.alloc_minor = on_alloc;
  tr.alloc_major = on_alloc;
  if (out == NULL || mp_memprof_start (1, 64, &tr) != 0)
    return 1;
#ifndef NAMES_NO_NESTED
  __attribute__ ((noinline)) void
  inner (size_t n)
  {
    free (sink = malloc (n));
  }
  inner (argc * 16);
#endif
  konst (8, 2);
  konst (8, 2);
  struct big b = { { 0 }, 24 };
  sra (&b);
  split (argc + 2000);
  split (argc * 3000);
  cold_path (argc);
  call_helper (argc + 40);
#ifndef __SANITIZE_ADDRESS__
  /* Not under ASan, whose allocator replaces interposition: memprof
     sees no allocation of libc there.  */
  fprintf (out, "%d\n", argc);
#endif
  mp_memprof_stop ();
  fclose (out);
  return 0;
}
