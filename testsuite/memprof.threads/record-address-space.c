/* The address space runs short (RLIMIT_AS) when a thread needs its
   counters.  Each thread record reserves room for the counters of
   MP_MAX_SITES sites, 128 MiB; a reservation refused shrinks every
   record's, halving it down to the counters committed at most
   (runtime/sites.c), with a warning, rather than end the program.
   Here the limit leaves room for no more: the late thread's record gets
   the committed counters of 4096 slots alone (4094 sites: a record
   takes 2 slots), and of its MPT_SITES sites those past them are
   counted as <unknown>.  Every count stays exact, and the report says
   why.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan reserves its shadow in the address space" { asan } } */

#include <pthread.h>
#include <sys/resource.h>
#include "../lib/mptest.h"
#include "../lib/mpmany.h"

static pthread_barrier_t go;

static void *
late (void *arg)
{
  pthread_barrier_wait (&go);   /* its record is made after the limit */
  mpt_many ();
  return arg;
}

/* The process's address space, in bytes.  */
static long
address_space (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets (line, sizeof line, f))
    if (sscanf (line, "VmSize: %ld kB", &kib) == 1)
      break;
  if (f)
    fclose (f);
  return kib * 1024;
}

struct tally
{
  int64_t sites, exact, unknown;
};

static int
count_many (const struct mp_site_info *i, void *data)
{
  struct tally *t = data;
  if (strcmp (i->function, "mpt_many") == 0
      && strcmp (i->callee, "malloc") == 0)
    {
      t->sites++;
      /* malloc itself may fail, so short of address space */
      t->exact += i->stats.numAllocate == 1
                  && i->stats.bytesAllocated == i->stats.numAllocateOK;
    }
  if (strcmp (i->file, "<unknown>") == 0)
    t->unknown += i->stats.numAllocate;
  return 0;
}

int
main (void)
{
  mpt_sink = malloc (1);        /* main's record exists */
  free (mpt_sink);
  struct mp_alloc_stats before, after;
  mp_alloc_stats (&before);
  pthread_t t;
  CHECK_EQ (pthread_barrier_init (&go, NULL, 2), 0);
  CHECK_EQ (pthread_create (&t, NULL, late, NULL), 0);

  /* Giving back all but the committed counters of main's record, 127.5
     MiB, makes room for the late thread's 0.5 MiB; giving back 127 MiB
     does not make room for 1 MiB.  */
  struct rlimit old, r;
  CHECK_EQ (getrlimit (RLIMIT_AS, &old), 0);
  r = old;
  r.rlim_cur = address_space () - 126.5 * 1024 * 1024;
  CHECK_EQ (setrlimit (RLIMIT_AS, &r), 0);
  pthread_barrier_wait (&go);
  pthread_join (t, NULL);
  CHECK_EQ (setrlimit (RLIMIT_AS, &old), 0);

  mp_alloc_stats (&after);
  CHECK_EQ (after.numAllocate - before.numAllocate, MPT_SITES);
  CHECK_EQ (after.numDeallocate - before.numDeallocate, MPT_SITES);
  struct tally n = { 0, 0, 0 };
  mp_site_foreach (count_many, &n);
  /* 4094 slots for the malloc and the free sites of mpt_many ().  */
  CHECK (n.sites > 2000 && n.sites < MPT_SITES);
  CHECK_EQ (n.exact, n.sites);
  CHECK_EQ (n.unknown, MPT_SITES - n.sites);

  char *text;
  size_t size;
  FILE *out = open_memstream (&text, &size);
  mp_report (out);
  fclose (out);
  CHECK (strstr (text, "counters: address space short, room for 4094 sites")
         != NULL);
  free (text);
  return mpt_done ();
}

/* { dg-output "memprof: cannot reserve a thread's counters for \[0-9\]+ sites \[(\]\[^\n\]*\[)\]: reserving 4094; sites past them are counted as <unknown>\n" } */
/* { dg-output "memprof: cannot number more allocation sites; the rest are counted as <unknown>\n" } */
/* { dg-output "ok\n$" } */
