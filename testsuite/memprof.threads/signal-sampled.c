/* Signal handlers that allocate, reallocate and free sampled blocks,
   at rate 1, while the threads they interrupt are inside the runtime:
   taking a sample (its call stack, its record in the profile) or
   freeing a tracked block, under mp_profile_lock.  Two workers churn
   blocks, a third thread sends them SIGUSR1 every few microseconds for
   about a second, and each handler mallocs and frees blocks of its own
   and frees or reallocs the blocks its worker handed over through a
   lock-free slot.  Nothing deadlocks, every count is exact, and every
   sampled block that died is dead in the profile and to the tracker.

   A handler that interrupts glibc's malloc or anything else outside the
   program and the runtime returns at once: glibc's malloc is not
   async-signal-safe, and the runtime cannot make it so.  The handlers
   count the signals that fell inside the runtime's sections: their
   blocks get no sample (no alloc callback in the thread) and their
   frees and reallocs of tracked blocks are deferred (no dealloc
   callback in the thread), the thread not being in a callback.  The
   first half runs without a tracker (the profile's frees alone are
   deferred), the second with one whose callbacks count.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -g" } */
/* { dg-set-target-env-var MEMPROF "interpose=0,sampling_rate=1,callstack_size=1,stacks=3,report=signal-sampled.txt" } */
/* { dg-timeout 60 } */

#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include "../lib/mptest.h"

#define WORKERS 2
#define KEPT 3

/* The code a handler may interrupt and still allocate: the program's
   own (the runtime is linked into it) and libunwind's, which the
   runtime calls to capture stacks.  */
#define MAX_RANGES 16
static uintptr_t range_lo[MAX_RANGES], range_hi[MAX_RANGES];
static int n_ranges;

static int
find_ranges (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  const char *name = info->dlpi_name;
  if (*name != '\0' && strstr (name, "libunwind") == NULL
      && strstr (name, "libmemprof") == NULL)
    return 0;
  for (int i = 0; i < info->dlpi_phnum && n_ranges < MAX_RANGES; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD
        && (info->dlpi_phdr[i].p_flags & PF_X))
      {
        range_lo[n_ranges] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        range_hi[n_ranges] = range_lo[n_ranges] + info->dlpi_phdr[i].p_memsz;
        n_ranges++;
      }
  return 0;
}

static int
interruptible (const void *ucontext)
{
  const ucontext_t *uc = ucontext;
#if defined __x86_64__
  uintptr_t pc = (uintptr_t) uc->uc_mcontext.gregs[REG_RIP];
#elif defined __aarch64__
  uintptr_t pc = (uintptr_t) uc->uc_mcontext.pc;
#else
  uintptr_t pc = 0;
  (void) uc;
#endif
  for (int i = 0; i < n_ranges; i++)
    if (pc >= range_lo[i] && pc < range_hi[i])
      return 1;
  return 0;
}

/* The tracker, and what its callbacks saw in each thread.  */
static atomic_long allocs, deallocs;
static __thread long my_allocs, my_deallocs;
static __thread volatile int in_cb;
static atomic_int tracking;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) a;
  in_cb = 1;
  my_allocs++;
  atomic_fetch_add (&allocs, 1);
  in_cb = 0;
  return data;
}

static void
on_dealloc (void *meta, void *data)
{
  (void) meta;
  (void) data;
  in_cb = 1;
  my_deallocs++;
  atomic_fetch_add (&deallocs, 1);
  in_cb = 0;
}

/* A worker's hand-over: a block the worker allocated, for its handler
   to free (slot) or to realloc and free (slot2).  */
static __thread _Atomic (void *) slot, slot2;
static atomic_long handed, handed2;     /* blocks put in slot, slot2 */
static atomic_long h_signals, h_skipped, h_allocs, h_frees;
static atomic_long h_taken, h_taken2, hits_alloc, hits_free, hits_realloc;
static unsigned l_h_malloc, l_h_calloc, l_h_free, l_h_realloc, l_h_free2;
static unsigned l_h_free_handed;

static void *volatile sink;

static void
handler (int sig, siginfo_t *si, void *uc)
{
  (void) sig;
  (void) si;
  if (!interruptible (uc))
    {
      atomic_fetch_add (&h_skipped, 1);
      return;
    }
  int saved = errno;
  atomic_fetch_add (&h_signals, 1);
  int watch = atomic_load (&tracking) && !in_cb;
  long a0 = my_allocs;
  char *p = malloc (40); l_h_malloc = __LINE__;
  hits_alloc += watch && my_allocs == a0;
  char *q = calloc (3, 8); l_h_calloc = __LINE__;
  sink = p;                     /* GCC may drop a malloc it sees freed */
  sink = q;
  free (q); free (p); l_h_free = __LINE__;
  atomic_fetch_add (&h_allocs, 2);
  atomic_fetch_add (&h_frees, 2);
  int *mine = atomic_exchange (&slot, NULL);
  if (mine)
    {
      long d0 = my_deallocs;
      int tracked = *mine;
      free (mine); l_h_free_handed = __LINE__;
      hits_free += watch && tracked && my_deallocs == d0;
      atomic_fetch_add (&h_taken, 1);
    }
  int *r = atomic_exchange (&slot2, NULL);
  if (r)
    {
      long d0 = my_deallocs;
      int tracked = *r;
      r = realloc (r, 300); l_h_realloc = __LINE__;
      hits_realloc += watch && tracked && my_deallocs == d0;
      free (r); l_h_free2 = __LINE__;
      atomic_fetch_add (&h_taken2, 1);
    }
  errno = saved;
}

static atomic_int stop;
static pthread_t workers[WORKERS];
static atomic_long w_allocs[WORKERS], w_frees[WORKERS];
static unsigned l_churn, l_hand, l_hand2, l_w_free, l_left, l_left2;

/* One round of worker W's: blocks allocated and freed, and blocks
   handed over to its handler.  */
static __attribute__ ((noinline)) void
churn (intptr_t w)
{
  atomic_long *n_allocs = &w_allocs[w];
  atomic_long *n_frees = &w_frees[w];
  void *b[4];
  for (int i = 0; i < 4; i++)
    {
      b[i] = malloc (16); l_churn = __LINE__;
    }
  atomic_fetch_add (n_allocs, 4);
  for (int i = 0; i < 4; i++)
    {
      free (b[i]); l_w_free = __LINE__;
    }
  atomic_fetch_add (n_frees, 4);
  if (atomic_load (&slot) == NULL)
    {
      int *h = malloc (64); l_hand = __LINE__;
      *h = atomic_load (&tracking);   /* then the tracker has it */
      atomic_store (&slot, h);
      atomic_fetch_add (&handed, 1);
    }
  if (atomic_load (&slot2) == NULL)
    {
      int *h = malloc (24); l_hand2 = __LINE__;
      *h = atomic_load (&tracking);
      atomic_store (&slot2, h);
      atomic_fetch_add (&handed2, 1);
    }
}

/* Worker ARG.  */
static void *
work (void *arg)
{
  while (!atomic_load (&stop))
    churn ((intptr_t) arg);
  /* The signaller has stopped: what the handler did not take.  */
  void *h = atomic_exchange (&slot, NULL);
  free (h); l_left = __LINE__;
  if (h)
    atomic_fetch_add (&handed, -1);
  h = atomic_exchange (&slot2, NULL);
  free (h); l_left2 = __LINE__;
  if (h)
    atomic_fetch_add (&handed2, -1);
  return NULL;
}

static atomic_int signalling;
static atomic_long sent;

static void *
signaller (void *arg)
{
  (void) arg;
  struct timespec gap = { 0, 20000 };
  while (atomic_load (&signalling))
    {
      for (int i = 0; i < WORKERS; i++)
        if (pthread_kill (workers[i], SIGUSR1) == 0)
          atomic_fetch_add (&sent, 1);
      nanosleep (&gap, NULL);
    }
  return NULL;
}

static void *volatile kept[KEPT];

/* One call, one return address: one stack in the profile.  */
static __attribute__ ((noinline)) void *
keep_block (void)
{
  return malloc (48);
}

static void
sleep_ms (long ms)
{
  struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };
  while (nanosleep (&t, &t) != 0)
    ;
}

int
main (void)
{
  dl_iterate_phdr (find_ranges, NULL);
  CHECK (n_ranges > 0);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset (&sa.sa_mask);
  CHECK_EQ (sigaction (SIGUSR1, &sa, NULL), 0);

  for (intptr_t i = 0; i < WORKERS; i++)
    CHECK_EQ (pthread_create (&workers[i], NULL, work, (void *) i), 0);
  atomic_store (&signalling, 1);
  pthread_t s;
  CHECK_EQ (pthread_create (&s, NULL, signaller, NULL), 0);
  sleep_ms (500);
  static int meta;
  struct mp_tracker tr = { .alloc_minor = on_alloc, .alloc_major = on_alloc,
                           .dealloc_minor = on_dealloc,
                           .dealloc_major = on_dealloc, .data = &meta };
  mpt_start (1, tr);
  atomic_store (&tracking, 1);
  long allocs_before = atomic_load (&allocs);
  sleep_ms (500);
  atomic_store (&signalling, 0);
  CHECK_EQ (pthread_join (s, NULL), 0);
  atomic_store (&stop, 1);
  for (int i = 0; i < WORKERS; i++)
    CHECK_EQ (pthread_join (workers[i], NULL), 0);
  atomic_store (&tracking, 0);

  for (int i = 0; i < KEPT; i++)
    kept[i] = keep_block ();
  mp_minor ();                  /* the deferred deallocs delivered */

  /* The counts, exact.  */
  long n_churn = 0, n_wfree = 0;
  for (int i = 0; i < WORKERS; i++)
    {
      n_churn += atomic_load (&w_allocs[i]);
      n_wfree += atomic_load (&w_frees[i]);
    }
  long taken = atomic_load (&h_taken), taken2 = atomic_load (&h_taken2);
  long hs = atomic_load (&h_signals);
  CHECK_EQ (n_churn, n_wfree);
  CHECK_EQ (atomic_load (&handed), taken);
  CHECK_EQ (atomic_load (&handed2), taken2);
  CHECK_ALLOCS (l_churn, n_churn, 16 * n_churn);
  CHECK_FREES (l_w_free, n_wfree, 16 * n_wfree);
  CHECK_ALLOCS (l_h_malloc, hs, 40 * hs);
  CHECK_ALLOCS (l_h_calloc, hs, 24 * hs);
  CHECK_EQ (SITE (l_h_free).s.numDeallocate, 2 * hs);
  CHECK_EQ (SITE (l_h_free).s.bytesContracted, 64 * hs);
  CHECK_FREES (l_h_free_handed, taken, 64 * taken);
  CHECK_EQ (SITE (l_h_realloc).s.numReallocateOK, taken2);
  CHECK_FREES (l_h_free2, taken2, 300 * taken2);
  CHECK_EQ (atomic_load (&h_allocs), 2 * hs);
  CHECK_EQ (atomic_load (&h_frees), 2 * hs);

  /* Every tracked block that died was seen dead: the tracker's blocks
     alive are the KEPT.  The window was hit, in both ways.  */
  CHECK (atomic_load (&allocs) > allocs_before);
  CHECK_EQ (atomic_load (&allocs) - atomic_load (&deallocs), KEPT);
  CHECK (hits_alloc > 0);
  CHECK (hits_free > 0);
  CHECK (hits_realloc > 0);
  fprintf (stderr, "%ld signals sent, %ld handled, %ld outside: "
           "%ld samples, %ld frees and %ld reallocs in the runtime's "
           "sections\n", atomic_load (&sent), hs, atomic_load (&h_skipped),
           (long) hits_alloc, (long) hits_free, (long) hits_realloc);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
/* The profile's live bytes: the KEPT blocks of 48 bytes (6 words), and
   no other stack with any.  */
/* { dg-final { scan-file signal-sampled.txt "== call stacks by estimated bytes live: 3 of \[0-9\]+ ==\n144 bytes, 18 samples, not young\n    keep_block at \[^\n\]*signal-sampled.c:\[0-9\]+\n0 bytes, \[0-9\]+ samples, not young\n(    \[^\n\]*\n)+0 bytes, " } } */
/* { dg-final { scan-file-not signal-sampled.txt "\n-\[0-9\]+ bytes, " } } */
