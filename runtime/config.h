/* config.h -- the settings of MEMPROF (config.c), and the `%p' of its
   paths.  */

#ifndef MEMPROF_CONFIG_H
#define MEMPROF_CONFIG_H

#include <stddef.h>

/* The report's sections (MEMPROF's sections=).  */
enum
{
  MP_SECTION_STAT = 1, MP_SECTION_ALLOC = 2, MP_SECTION_SITES = 4,
  MP_SECTION_FUNCTIONS = 8, MP_SECTION_STACKS = 16, MP_SECTIONS_ALL = 31
};

/* Settings from MEMPROF, but for the control record's (control.c);
   written once by mp_init, read-only after.  */
struct mp_config
{
  char *report_path;     /* NULL: stderr; "" : no report */
  char *pprof_path, *folded_path, *json_path, *html_path;
                         /* the other forms, NULL: not written */
  unsigned long sites;   /* per-site lines in the report; 0: all */
  unsigned long functions;  /* space profiles in the report; 0: all */
  double sampling_rate;  /* the report's sampling; 0: off */
  unsigned sampling_rate_given;  /* 1: MEMPROF gave sampling_rate */
  unsigned long callstack_size;  /* frames per sampled call stack */
  unsigned long past_main;  /* 1: call stacks go on past main and past a
                               thread's start routine (callstack.c) */
  unsigned long stacks;  /* call stacks in each report section; 0: all */
  unsigned sections;     /* MP_SECTION_* bits */
  unsigned long init_heap_words;  /* Boehm's heap at its start, at least */
  unsigned long own_limit;  /* bytes for the sampling tables (own.c) */
  unsigned vm_frames;    /* MP_VM_FRAMES_*: a guest language's frames */
  unsigned stats, per_call;  /* the statistics the reports may show,
                                global and per call (stats.c): bits of
                                MP_SITE_STATS */
  char *eventlog_path;   /* the event log (eventlog.c); NULL: none */
  unsigned long eventlog_paused;  /* 1: it starts paused */
  unsigned long interpose;  /* 1: count the calls no rewritten site
                               made (interpose.c); 0: pass them on */
};

/* Where a guest language's frames show (guest.c): among the C frames of
   the VM's entry function, in their place, or not at all.  */
enum { MP_VM_FRAMES_INTERLEAVE, MP_VM_FRAMES_INSTEAD, MP_VM_FRAMES_OFF };
extern struct mp_config mp_config;

/* Settle what depends on several of *CFG's settings, once MEMPROF is
   parsed: the report's sampling is off by default when nothing would
   show its samples (no report, or one without the functions and stacks
   sections, and no other form), since they would cost the program
   without a reader; a sampling_rate given in MEMPROF stays.  */
void mp_config_settle (struct mp_config *cfg);

/* Make *CFG the settings of a process in secure mode (init.c), whose
   stderr belongs to a user it does not run as: no report, and no
   sampling, whose call stacks would have libdw read debug information
   (and ask the debuginfod servers of DEBUGINFOD_URLS).  */
void mp_config_secure (struct mp_config *cfg);

/* MEMPROF's parser has no effect but on *CFG: the control fields it
   reads go to PRESET (0, or -1 for a value out of range) and its
   warnings to WARN, so that fuzz/ can run it as often as it likes.  The
   runtime's are mp_control_preset and mp_warn.  */
typedef int mp_preset_fn (int field, long value);
typedef void mp_warn_fn (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
void mp_config_parse (const char *text, struct mp_config *cfg,
                      mp_preset_fn *preset, mp_warn_fn *warn);

/* PATH, a path of MEMPROF's, with `%p' and `%%' expanded for process
   PID, and `.PID' appended if FORKED and it has no `%p'; NULL without
   memory.  */
char *mp_config_path (const char *path, long pid, int forked);

#endif
