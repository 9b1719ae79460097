/* A program run by its dynamic loader, as `ld.so PROGRAM': the
   executable, whose frames are named without /proc/self/maps
   (symbols.c), is the program, which the auxiliary vector describes,
   and not the file /proc/self/exe names, the loader.  The program runs
   itself so.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-skip-if "LeakSanitizer finds no root of the loader's own blocks under ld.so PROGRAM" { asan } } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt" } */

#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

void *volatile sink;

static __attribute__ ((noinline)) void
allocate (int n)
{
  while (n-- > 0)
    free (sink = malloc (64));
  __asm__ volatile ("");
}

/* The dynamic loader's path, from the program's PT_INTERP.  */
static const char *
interpreter (void)
{
  const ElfW (Phdr) *ph = (const ElfW (Phdr) *) getauxval (AT_PHDR);
  size_t n = getauxval (AT_PHNUM);
  uintptr_t bias = 0;
  for (size_t i = 0; i < n; i++)
    if (ph[i].p_type == PT_PHDR)
      bias = (uintptr_t) ph - ph[i].p_vaddr;
  for (size_t i = 0; i < n; i++)
    if (ph[i].p_type == PT_INTERP)
      return (const char *) (bias + ph[i].p_vaddr);
  return NULL;
}

int
main (void)
{
  if (getenv ("LDSO_RUN") == NULL)
    {
      char self[PATH_MAX];
      ssize_t len = readlink ("/proc/self/exe", self, sizeof self - 1);
      const char *ldso = interpreter ();
      if (len <= 0 || ldso == NULL)
        return 1;
      self[len] = '\0';
      setenv ("LDSO_RUN", "1", 1);
      execl (ldso, ldso, self, (char *) NULL);
      perror ("execl");
      return 1;
    }
  allocate (3);
  fprintf (stderr, "ok\n");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.txt "\n192 bytes, 24 samples, not young\n    allocate at \[^\n\]*ldso-run.c:24\n    main at \[^\n\]*ldso-run.c:60\n==" } } */
