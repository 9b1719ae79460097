/* replay.c -- run a libFuzzer harness on files, without libFuzzer, so
   that the testsuite replays the corpus with any compiler
   (testsuite/memprof.fuzz).  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Run the harness on the contents of NAME, from a buffer of their exact
   size, as libFuzzer does, so that ASan sees any read past them.  */
static int
replay (const char *name)
{
  FILE *f = fopen (name, "rb");
  long size = -1;
  if (f && fseek (f, 0, SEEK_END) == 0)
    size = ftell (f);
  uint8_t *data = size >= 0 ? malloc (size ? (size_t) size : 1) : NULL;
  int ok = data && fseek (f, 0, SEEK_SET) == 0
           && fread (data, 1, (size_t) size, f) == (size_t) size;
  if (ok)
    LLVMFuzzerTestOneInput (data, (size_t) size);
  else
    perror (name);
  free (data);
  if (f)
    fclose (f);
  return ok;
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (!replay (argv[i]))
      return 1;
  printf ("replayed %d inputs\n", argc - 1);
  return 0;
}
