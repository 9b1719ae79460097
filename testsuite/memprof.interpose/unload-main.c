/* Run by interpose.exp, not as a dg test, with unload-lib.c's four
   objects: A (unload_a) and B (unload_b) in argv[1] and argv[2], C
   (unload_c) in argv[3], D (unload_d) in argv[4].  A is loaded, called
   here and in a thread that stays, and unloaded; B, loaded next, lands
   where A was (else the program says so, and stops), and is called the
   same way: its calls must make sites and frames of their own, A's
   keep their names (interpose.exp reads the report).  C is opened
   twice and D with RTLD_NODELETE, and called before and after a
   dlclose that unloads neither: it retires nothing, and their calls
   count at one site each.  */

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include "../lib/mptest.h"

static void (*volatile call) (void);
static sem_t go, done;

static void *
worker (void *arg)
{
  (void) arg;
  for (;;)
    {
      sem_wait (&go);
      if (call == NULL)
        return NULL;
      call ();
      sem_post (&done);
    }
}

/* Call FN here, then in the worker.  */
static void
call_twice (void (*fn) (void))
{
  fn ();
  call = fn;
  sem_post (&go);
  sem_wait (&done);
}

/* Whether the loader has PATH loaded (the maps may show it mapped by
   the runtime's reading of its symbols).  */
static int
loaded (const char *path)
{
  void *h = dlopen (path, RTLD_NOW | RTLD_NOLOAD);
  if (h != NULL)
    dlclose (h);
  return h != NULL;
}

static void (*
open_fn (const char *path, const char *name, int flags, void **handle)) (void)
{
  *handle = dlopen (path, RTLD_NOW | flags);
  CHECK (*handle != NULL);
  void (*fn) (void) = *handle ? (void (*) (void)) dlsym (*handle, name) : NULL;
  CHECK (fn != NULL);
  return fn;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 5);
  pthread_t t;
  sem_init (&go, 0, 0);
  sem_init (&done, 0, 0);
  CHECK_EQ (pthread_create (&t, NULL, worker, NULL), 0);
  void *a, *b, *c, *c2, *d;
  void (*fa) (void) = open_fn (argv[1], "unload_a", 0, &a);
  if (fa == NULL)
    return mpt_done ();
  call_twice (fa);
  CHECK_EQ (dlclose (a), 0);
  CHECK (!loaded (argv[1]));
  void (*fb) (void) = open_fn (argv[2], "unload_b", 0, &b);
  if (fb != NULL && (void *) fb != (void *) fa)
    {
      printf ("unsupported: B at %p, not where A was (%p)\n", (void *) fb,
              (void *) fa);
      return 0;
    }
  call_twice (fb);

  void (*fc) (void) = open_fn (argv[3], "unload_c", 0, &c);
  open_fn (argv[3], "unload_c", 0, &c2);
  void (*fd) (void) = open_fn (argv[4], "unload_d", RTLD_NODELETE, &d);
  if (fc == NULL || fd == NULL)
    return mpt_done ();
  call_twice (fc);
  call_twice (fd);
  CHECK_EQ (dlclose (c2), 0);
  CHECK (loaded (argv[3]));
  CHECK_EQ (dlclose (d), 0);
  CHECK (loaded (argv[4]));
  call_twice (fc);
  call_twice (fd);
  call = NULL;
  sem_post (&go);
  pthread_join (t, NULL);
  return mpt_done ();
}
