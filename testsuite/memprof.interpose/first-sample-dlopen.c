/* The process's first sample, which loads libunwind with dlopen, in one
   thread, while another is inside dlopen, under the dynamic loader's
   lock, where the library's constructor allocates and is sampled too
   (first-sample-dlopen-lib.c): neither waits for the other.  Built by
   interpose.exp without the plugin, with the shared runtime; run at a
   rate that samples the two 64 MiB blocks and nothing before.  Before,
   the second sample waited for the first's pthread_once, whose dlopen
   waited for the loader's lock: for ever.  */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

static sem_t ready;

/* Called by the library's constructor, under the loader's lock.  */
void
first_sample_lib_ready (void)
{
  sem_post (&ready);
}

static void *
opener (void *lib)
{
  if (dlopen ((const char *) lib, RTLD_NOW) == NULL)
    fprintf (stderr, "%s\n", dlerror ());
  return NULL;
}

void *volatile kept;

int
main (int argc, char **argv)
{
  if (argc < 2)
    return 2;
  sem_init (&ready, 0, 0);
  pthread_t a;
  pthread_create (&a, NULL, opener, argv[1]);
  sem_wait (&ready);
  kept = malloc (64 << 20);
  pthread_join (a, NULL);
  puts ("ok");
  return 0;
}
