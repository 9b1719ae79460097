/* profile.c -- what the VM tells memprof, when it runs under it
   (memprof.h's interface for language VMs): a site per Scheme procedure
   and per top-level form, the one running kept in memprof's slot, so
   that the report counts each procedure's allocations exactly; and a
   frame provider, so that sampled call stacks show the Scheme
   procedures with their file and line.

   Built without memprof, the VM runs the same: memprof's functions are
   weak references (MEMPROF_OPTIONAL) and NULL, the sites are NULL, and
   eval.c stores them in a slot of ours that nobody reads.  */

#define MEMPROF_OPTIONAL
#include <memprof.h>
#include <stdlib.h>
#include "node.h"

static const struct mp_vm_site *unread;
const struct mp_vm_site **vm_running = &unread;

/* The origins of the procedures of the activations of exec, innermost
   first, each followed by the mark of its activation (the ones that run
   no procedure of their own give the mark alone).  */
static size_t
capture (uintptr_t *frames, size_t max, void *data)
{
  (void) data;
  size_t n = 0;
  for (const struct activation *a = vm_activation; a && n + 2 <= max;
       a = a->outer)
    {
      if (a->proc)
        frames[n++] = (uintptr_t) a->proc->origin;
      frames[n++] = MP_FRAME_ENTRY;
    }
  return n;
}

static int
symbolise (uintptr_t word, struct mp_frame *out, void *data)
{
  (void) data;
  const struct origin *o = (const struct origin *) word;
  out->function = o->name;
  out->file = o->file;
  out->line = (unsigned) o->line;
  return 0;
}

void
profile_init (void)
{
  if (mp_set_frame_provider == NULL || mp_vm_running == NULL)
    return;
  struct mp_frame_provider p = { capture, symbolise, eval_entry (), NULL };
  mp_set_frame_provider (&p);
  vm_running = mp_vm_running ();
}

/* The origins live as long as the process, as memprof's sites do: they
   are never freed, and kept on a list, where a leak checker sees them.  NAME is a symbol's, FILE the command line's or a
   string constant: both live as long too.  Without memprof, one origin
   does for all.  Each is one of the VM's allocations.  */
static const struct origin *origins;

const struct origin *
profile_origin (const char *name, const char *file, int line)
{
  static const struct origin none;
  struct origin *o;
  if (mp_vm_site == NULL || (o = malloc (sizeof *o)) == NULL)
    return &none;
  vm_allocations++;
  o->name = name ? name : "toplevel";
  o->file = file;
  o->line = line;
  o->site = mp_vm_site (o->name, file, (unsigned) line, MP_VM_PROCEDURE);
  o->next = origins;
  origins = o;
  return o;
}
