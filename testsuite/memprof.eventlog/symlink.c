/* A symlink planted at the log's path before the program starts is
   replaced, not followed: the file it points at keeps what it had, and
   the log is a new file of the process's own, with no temporary file
   left beside it.  The program plants the link, then runs itself again
   with the log on.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <gc.h>
#include <memprof.h>

int
main (int argc, char **argv)
{
  if (argc == 1)
    {
      FILE *f = fopen ("precious.txt", "w");
      fputs ("good\n", f);
      fclose (f);
      if (symlink ("precious.txt", "log.json") != 0)
        perror ("symlink");
      setenv ("MEMPROF", "eventlog=log.json,report=none", 1);
      execl ("/proc/self/exe", argv[0], "again", (char *) NULL);
      perror ("execl");
      return 1;
    }
  GC_INIT ();
  mp_minor ();
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file precious.txt "\\A(good\n)\\Z" } } */
/* { dg-final { scan-eventlog log.json "^forced mp_minor 1$" } } */
/* { dg-final { scan-eventlog log.json "^balanced$" } } */
/* { dg-final { scan-dir-not "*.tmp*" } } */
