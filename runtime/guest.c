/* guest.c -- the frames of the guest language a VM runs: its frame
   provider (memprof.h), the frames captured with each sample, their
   symbols, and where they show among the C frames.

   Design.  At each sample, after the C return addresses, the provider's
   CAPTURE appends the VM's own frame words, tagged (guest.h), so that a
   stack stays one array of words: the profile (profile.c) keys its
   records on it and the report's writers find locations by it, as for
   C frames.  Only when a stack is shown does mp_guest_arrange move the
   guest frames to the C frames of the VM's entry function that run
   them, which takes symbols for the C frames anyway.  Each guest frame
   goes just outside the activation running it, as its caller: the
   stack reads "procedure, then the interpreter running its body", and
   the innermost frame stays the C function that holds the allocation
   site, as the space profiles want.  Guest frames whose activation is
   not among the C frames captured (callstack_size cut the stack below
   it, the allocation ran on a C path not under the entry function, or
   there is no entry function) go outermost: they are callers of every
   C frame the stack shows.

   The provider's callbacks are the VM's code: they may allocate, take
   the VM's locks, be slow.  So none of the runtime's locks is held
   while they run, and sampling is suspended in the thread meanwhile
   (the callers of mp_guest_capture see to it, and mp_guest_frame does).
   A provider is replaced only once no capture of the old one runs, and
   after its frames of the samples so far are symbolised, so that the VM
   may free what DATA points to.

   `lock' guards the provider, the name of its entry function and the
   cache of symbolised frames; it is taken for short copies only, and
   holds no other lock.  */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "callstack.h"
#include "guest.h"
#include "config.h"
#include "symbols.h"
#include "profile.h"
#include "index.h"
#include "roots.h"

#define WORD_MASK (~MP_GUEST_TAG_MASK)
#define BAD_WORD WORD_MASK      /* a word the provider gave too large */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* capture NULL: none; a root, which keeps its data alive.  */
static struct mp_frame_provider provider MP_GC_ROOT;

/* The VM's entry function: its address, from the latest provider that
   gave one, and its name once symbolised (NULL: not yet; "": none).
   Frames captured under an older provider are arranged with it too.  */
static const void *entry;
static char *entry_name;

/* Captures under way, for mp_set_frame_provider to wait for.  */
static atomic_long capturing;

/* 1 once a provider was set (under lock): until then a capture needs
   neither the lock nor the count, as a provider set meanwhile is one
   set just after it.  */
static atomic_int ever_provided;

/* The symbolised frames, each allocated apart (callers keep pointers
   into them), numbered in `cache_index' by word.  */
struct cached
{
  uintptr_t word;
  struct mp_frame frame;
};
static struct cached **cache;
static size_t n_cache, cap_cache;
static struct mp_index cache_index;
static uintptr_t sought;

static int
same_word (size_t item, void *ctx)
{
  (void) ctx;
  return cache[item]->word == sought;
}

/* WORD's entry, or NULL; under lock.  */
static struct cached *
find (uintptr_t word, size_t **slot)
{
  sought = word;
  *slot = mp_index_find (&cache_index, mp_hash_address (word), same_word, NULL);
  return *slot && **slot ? cache[**slot - 1] : NULL;
}

size_t
mp_guest_capture (uintptr_t *buf, size_t n, size_t max)
{
  if (!atomic_load_explicit (&ever_provided, memory_order_acquire))
    return n;
  atomic_fetch_add (&capturing, 1);
  pthread_mutex_lock (&lock);
  struct mp_frame_provider p = provider;
  pthread_mutex_unlock (&lock);
  if (p.capture != NULL && n < max)
    {
      size_t k = p.capture (buf + n, max - n, p.data);
      for (size_t i = n; i < n + k && i < max; i++)
        buf[i] = buf[i] == MP_FRAME_ENTRY ? MP_GUEST_ENTRY
                 : MP_GUEST_FRAME | (buf[i] < BAD_WORD ? buf[i] : BAD_WORD);
      n = k < max - n ? n + k : max;
    }
  atomic_fetch_sub (&capturing, 1);
  return n;
}

static char *
copy (const char *s)
{
  return s ? mp_strdup (s) : NULL;
}

/* Ask provider P for WORD's frame, with sampling suspended in the
   thread; "??" if it cannot say.  */
static struct cached *
ask (const struct mp_frame_provider *p, uintptr_t word)
{
  struct cached *c = calloc (1, sizeof *c);
  if (c == NULL)
    return NULL;
  struct mp_frame f = { NULL, NULL, 0, 0 };
  struct mp_thread *t = mp_self ();
  t->in_callback++;
  int ok = word != BAD_WORD && p->symbolise
           && p->symbolise (word, &f, p->data) == 0;
  t->in_callback--;
  c->word = word;
  c->frame.function = ok ? copy (f.function) : NULL;
  c->frame.file = ok ? copy (f.file) : NULL;
  c->frame.line = ok ? f.line : 0;
  if (c->frame.function == NULL)
    c->frame.function = "??";
  return c;
}

/* WORD's cached frame, symbolised by provider P if it is not yet; NULL
   without memory.  */
static const struct cached *
symbolised (const struct mp_frame_provider *p, uintptr_t word)
{
  size_t *slot;
  pthread_mutex_lock (&lock);
  struct cached *c = find (word, &slot);
  pthread_mutex_unlock (&lock);
  if (c != NULL)
    return c;
  struct cached *fresh = ask (p, word);
  pthread_mutex_lock (&lock);
  if (fresh && (c = find (word, &slot)) == NULL && slot
      && mp_reserve (&cache, &cap_cache, n_cache, sizeof *cache) == 0
      && mp_index_add (&cache_index, slot, mp_hash_address (word)) == 0)
    {
      cache[n_cache++] = c = fresh;
      fresh = NULL;
    }
  pthread_mutex_unlock (&lock);
  if (fresh)
    {
      if (fresh->frame.function[0] != '?')
        free ((char *) fresh->frame.function);
      free ((char *) fresh->frame.file);
      free (fresh);
    }
  return c;
}

const struct mp_frame *
mp_guest_frame (uintptr_t ra)
{
  static const struct mp_frame unknown = { "??", NULL, 0, 0 };
  if ((ra & MP_GUEST_TAG_MASK) == MP_GUEST_ENTRY)
    return NULL;
  pthread_mutex_lock (&lock);
  struct mp_frame_provider p = provider;
  pthread_mutex_unlock (&lock);
  const struct cached *c = symbolised (&p, ra & WORD_MASK);
  return c ? &c->frame : &unknown;
}

int
mp_guest_in (const uintptr_t *in, size_t n)
{
  return n > 0 && mp_is_guest (in[n - 1]);
}

/* ---- where the guest frames show ------------------------------------- */

/* The entry function's name, symbolised once; NULL if there is none.  */
static const char *
entry_function (void)
{
  pthread_mutex_lock (&lock);
  const void *fn = entry;
  char *name = entry_name;
  pthread_mutex_unlock (&lock);
  if (fn == NULL)
    return NULL;
  if (name == NULL)
    {
      const struct mp_frame *frames;
      size_t n = mp_symbolise_one ((uintptr_t) fn + 1, MP_SYMBOLS_NAMES,
                                   &frames);
      const char *f = frames[n - 1].function;
      name = mp_strdup (strcmp (f, "??") != 0 ? f : "");
      pthread_mutex_lock (&lock);
      if (entry_name == NULL && entry == fn)
        entry_name = name, name = NULL;
      pthread_mutex_unlock (&lock);
      free (name);
      name = entry_name;
    }
  return name && name[0] ? name : NULL;
}

/* Whether C frame RA is in the function called NAME.  */
static int
runs_guest (uintptr_t ra, const char *name)
{
  const struct mp_frame *frames;
  size_t n = mp_symbolise_one (ra, MP_SYMBOLS_NAMES, &frames);
  for (size_t i = 0; i < n; i++)
    if (strcmp (frames[i].function, name) == 0)
      return 1;
  return 0;
}

/* Copy the guest frames of IN from *G up to the next entry mark (or all
   of them, if ALL) to OUT at *K; skip the mark.  */
static void
copy_frames (const uintptr_t *in, size_t n, size_t *g, uintptr_t *out,
             size_t *k, int all)
{
  for (; *g < n; ++*g)
    {
      if ((in[*g] & MP_GUEST_TAG_MASK) == MP_GUEST_ENTRY)
        {
          if (!all)
            {
              ++*g;
              return;
            }
        }
      else
        out[(*k)++] = in[*g];
    }
}

/* Whether word W of a captured stack is a C frame: a return address,
   or the word that stands for one since its object was unloaded
   (callstack.h), which is tagged too.  */
static int
is_c_frame (uintptr_t w)
{
  uintptr_t tag = w & MP_GUEST_TAG_MASK;
  return tag == 0 || tag == MP_STACK_RETIRED;
}

size_t
mp_guest_arrange (const uintptr_t *in, size_t n, uintptr_t *out)
{
  size_t c = 0, g, k = 0;
  while (c < n && is_c_frame (in[c]))
    c++;
  int truncated = c < n && in[c] == MP_STACK_TRUNCATED;
  g = c + (size_t) truncated;
  const char *name = mp_config.vm_frames == MP_VM_FRAMES_OFF
                     ? NULL : entry_function ();
  size_t lo = c, hi = c;        /* the innermost and outermost entries */
  for (size_t i = 0; name && i < c; i++)
    if (runs_guest (in[i], name))
      {
        lo = lo < c ? lo : i;
        hi = i;
      }
  for (size_t i = 0; i < c; i++)
    {
      int in_vm = i >= lo && i <= hi;
      if (mp_config.vm_frames == MP_VM_FRAMES_INSTEAD && in_vm)
        {
          if (i == lo)
            copy_frames (in, n, &g, out, &k, 1);
          continue;
        }
      out[k++] = in[i];
      if (mp_config.vm_frames == MP_VM_FRAMES_INTERLEAVE && in_vm
          && runs_guest (in[i], name))
        copy_frames (in, n, &g, out, &k, 0);
    }
  if (mp_config.vm_frames != MP_VM_FRAMES_OFF)
    copy_frames (in, n, &g, out, &k, 1);        /* the rest, outermost */
  if (truncated)
    out[k++] = MP_STACK_TRUNCATED;
  return k;
}

/* ---- the provider ----------------------------------------------------- */

/* Symbolise, with provider P, the guest frames of the profile so far.  */
static void
symbolise_profile (const struct mp_frame_provider *p)
{
  size_t n;
  uintptr_t *words = mp_profile_guest_words (&n);
  for (size_t i = 0; words && i < n; i++)
    symbolised (p, words[i] & WORD_MASK);
  free (words);
}

MP_API int
mp_set_frame_provider (const struct mp_frame_provider *p)
{
  if (p != NULL && (p->capture == NULL || p->symbolise == NULL))
    {
      errno = EINVAL;
      return -1;
    }
  static const struct mp_frame_provider none;
  pthread_mutex_lock (&lock);
  struct mp_frame_provider old = provider;
  provider = p ? *p : none;
  if (p)
    atomic_store_explicit (&ever_provided, 1, memory_order_release);
  if (p && p->entry && p->entry != entry)
    {
      entry = p->entry;
      free (entry_name);
      entry_name = NULL;
    }
  pthread_mutex_unlock (&lock);
  while (atomic_load (&capturing) > 0)
    sched_yield ();
  if (old.capture != NULL)
    symbolise_profile (&old);
  return 0;
}

/* See fork.c.  Only the forking thread is in the child, and it is not
   capturing.  */
void
mp_guest_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_CHILD)
    atomic_store (&capturing, 0);
  mp_fork_mutex (&lock, step);
}
