/* namesakes.h -- the name each function is shown by, namesakes told
   apart by where they are defined (namesakes.c).  */

#ifndef MEMPROF_NAMESAKES_H
#define MEMPROF_NAMESAKES_H

/* Told that the function shown as OLD is shown as NOW from now on.  */
typedef void mp_renamed_fn (const char *old, const char *now, void *data);

/* The name to show function NAME, defined at LINE of FILE (NULL and 0
   if unknown), by: NAME while no other function of that name is known,
   else `NAME (FILE)', or `NAME (FILE:LINE)' if a namesake is defined in
   FILE too; FILE is the base name unless a namesake's has the same.
   When this call gives a known function a new name, it calls RENAMED
   (OLD, NOW, DATA) before it returns.  The same string for the same
   NAME, FILE and LINE until it is renamed; NAME itself without memory.
   NAME is kept only if it is the string returned: else the caller may
   free it.
   The caller serialises the calls (symbols.c's lock); the strings live
   as long as the process.  */
const char *mp_namesake_shown (const char *name, const char *file, int line,
                               mp_renamed_fn *renamed, void *data);

#endif
