/* main.c -- the top level: `scheme FILE...' runs each file, `scheme'
   alone reads, evaluates and prints from stdin (a REPL);
   `scheme --allocations ...' also prints, at exit, how many objects the
   VM made on the Boehm heap.

   An error prints FILE:LINE: error: MESSAGE on stderr and comes back
   here by longjmp.  A file stops at its first error, and the program
   then exits with status 1; the REPL drops the rest of the line and
   reads on.  */

#define _POSIX_C_SOURCE 200809L  /* isatty */
#include <errno.h>
#include <gc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "node.h"

static jmp_buf top_level;
static const char *input_name;  /* the file being read, for messages */

void
error (int line, const char *fmt, ...)
{
  va_list ap;
  fflush (stdout);
  fprintf (stderr, "%s:%d: error: ", input_name, line);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  putc ('\n', stderr);
  longjmp (top_level, 1);
}

void
type_error (const char *who, const char *expected, obj got)
{
  error (current_line, "%s: wrong type: expected %s, got %s", who, expected,
         repr (got));
}

/* Read and run the data of R; print their values if REPL, after a prompt
   if stdin is a terminal.  */
static void
run_all (struct reader *r, int repl)
{
  for (;;)
    {
      if (repl && isatty (0))
        fputs ("> ", stdout);
      int line;
      obj x = read_datum (r, &line);
      if (x == END_OF_FILE)
        return;
      const struct node *n = compile (x, r->name, line);
      forget_source_lines ();
      obj v = run (n);
      if (repl && v != UNSPECIFIED)
        {
          print (stdout, v, 1);
          putchar ('\n');
        }
    }
}

/* Run R, a file, or stdin as a REPL; 0, or 1 if there was an error.  */
static int
run_input (struct reader *r, int repl)
{
  volatile int failed = 0;
  input_name = r->name;
  /* Set again after each error: a longjmp ends the setjmp's frame.  */
  while (setjmp (top_level) != 0)
    {
      failed = 1;
      eval_reset ();
      forget_source_lines ();
      if (!repl)
        return 1;
      int c;
      while ((c = getc (r->in)) != '\n' && c != EOF)
        ;
      r->line++;
      if (c == EOF)
        return 1;
    }
  run_all (r, repl);
  return failed;
}

int
main (int argc, char **argv)
{
  char base;
  /* gc_inline.h's free lists (object.c) want Boehm to recognise pointers
     to the start of an object only, and the VM's pairs are pointers to
     their start plus 2 (scheme.h).  */
  GC_set_all_interior_pointers (0);
  GC_INIT ();
  GC_register_displacement (2);
  eval_init (&base);
  profile_init ();
  define_primitives ();
  int status = 0, count = argc > 1 && strcmp (argv[1], "--allocations") == 0;
  argc -= count;
  argv += count;
  if (argc < 2)
    {
      struct reader r = { stdin, "stdin", 1 };
      status = run_input (&r, 1);
    }
  for (int i = 1; i < argc && status == 0; i++)
    {
      FILE *in = fopen (argv[i], "r");
      if (in == NULL)
        {
          fprintf (stderr, "scheme: cannot open %s: %s\n", argv[i],
                   strerror (errno));
          return 1;
        }
      struct reader r = { in, argv[i], 1 };
      status = run_input (&r, 0);
      fclose (in);
    }
  fflush (stdout);
  if (count)
    fprintf (stderr, "scheme: %lu allocations\n", vm_allocations);
  return status;
}
