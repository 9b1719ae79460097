/* Run by interpose.exp, not as a dg test, with unload-lib.c's four
   objects: A (unload_a) and B (unload_b) in argv[1] and argv[2], C
   (unload_c) in argv[3], D (unload_d) in argv[4].  First C, opened
   twice, and D, with RTLD_NODELETE, are called (here and in a thread
   that stays) before and after a dlclose that unloads neither: it
   retires nothing, and their calls count at one site each.  Then A is
   loaded, called, and unloaded, twice (the report shows both loads'
   sites as one, named); B, loaded next, lands where A was
   (else the program says so, and stops), and is called the same way:
   its calls must make sites and frames of their own, and A's keep their
   names (interpose.exp reads the report); the tracker's call stacks name
   each in its own function.  Nothing is loaded after B,
   so that the report names B's frames with the maps last read before
   B was loaded.  */

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include "../lib/mptest.h"

static void (*volatile call) (void);
static sem_t go, done;

/* The function that the blocks sampled meanwhile must be allocated in,
   as the tracker's call stacks name it, and how many were.  */
static const char *volatile expect;
static _Atomic int matched, mismatched;

static void *
note (const struct mp_allocation *a, void *data)
{
  (void) data;
  struct mp_frame f;
  const char *want = expect;
  if (want == NULL)
    return NULL;
  if (mp_callstack_frame (a->callstack, 0, &f) == 0
      && strcmp (f.function, want) == 0)
    matched++;
  else
    {
      fprintf (stderr, "a block of %s's in %s\n", want,
               mp_callstack_length (a->callstack) ? f.function : "nothing");
      mismatched++;
    }
  return NULL;
}

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

/* How many sites allocated blocks of SIZE bytes only, and how many.  */
struct by_size
{
  long long size, sites, calls;
};

static int
count_size (const struct mp_site_info *i, void *data)
{
  struct by_size *c = data;
  if (i->stats.numAllocate > 0
      && i->stats.bytesAllocated == c->size * i->stats.numAllocate)
    {
      c->sites++;
      c->calls += i->stats.numAllocate;
    }
  return 0;
}

/* CHECK that the calls of SIZE bytes made CALLS are at one site.  */
static void
check_one_site (long long size, long long calls)
{
  struct by_size c = { size, 0, 0 };
  mp_site_foreach (count_size, &c);
  CHECK_EQ (c.sites, 1);
  CHECK_EQ (c.calls, calls);
}

/* C opened twice and D with RTLD_NODELETE, called before and after a
   dlclose of each that unloads neither.  */
static void
keep_loaded (const char *c_path, const char *d_path)
{
  void *c, *c2, *d;
  void (*fc) (void) = open_fn (c_path, "unload_c", 0, &c);
  open_fn (c_path, "unload_c", 0, &c2);
  void (*fd) (void) = open_fn (d_path, "unload_d", RTLD_NODELETE, &d);
  if (fc == NULL || fd == NULL)
    return;
  call_twice (fc);
  call_twice (fd);
  CHECK_EQ (dlclose (c2), 0);
  CHECK (loaded (c_path));
  CHECK_EQ (dlclose (d), 0);
  CHECK (loaded (d_path));
  call_twice (fc);
  call_twice (fd);
  check_one_site (333, 4);
  check_one_site (111, 4);
}

/* A called and unloaded, twice, and B loaded where A was and called; 0,
   or -1 if B is elsewhere.  */
static int
replace (const char *a_path, const char *b_path)
{
  void *a, *b;
  void (*fa) (void) = NULL;
  for (int round = 0; round < 2; round++)
    {
      fa = open_fn (a_path, "unload_a", 0, &a);
      if (fa == NULL)
        return 0;
      expect = "unload_a";
      call_twice (fa);
      expect = NULL;
      CHECK_EQ (dlclose (a), 0);
      CHECK (!loaded (a_path));
    }
  void (*fb) (void) = open_fn (b_path, "unload_b", 0, &b);
  if (fb != NULL && (void *) fb != (void *) fa)
    {
      printf ("unsupported: B at %p, not where A was (%p)\n", (void *) fb,
              (void *) fa);
      return -1;
    }
  if (fb != NULL)
    {
      expect = "unload_b";
      call_twice (fb);
      expect = NULL;
    }
  CHECK_EQ (matched, 6);
  CHECK_EQ (mismatched, 0);
  return 0;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 5);
  if (argc != 5)
    return mpt_done ();
  pthread_t t;
  sem_init (&go, 0, 0);
  sem_init (&done, 0, 0);
  CHECK_EQ (pthread_create (&t, NULL, worker, NULL), 0);
  struct mp_tracker tr = { .alloc_major = note };
  CHECK_EQ (mp_memprof_start (1, 16, &tr), 0);
  keep_loaded (argv[3], argv[4]);
  int rc = replace (argv[1], argv[2]);
  call = NULL;
  sem_post (&go);
  pthread_join (t, NULL);
  return rc ? 0 : mpt_done ();
}
