/* mpmaps.h -- what the process has mapped: #include after mptest.h.  */

#ifndef MPMAPS_H
#define MPMAPS_H

/* Whether the path of a mapping of the process contains NAME (a
   library's file name, or the path dlopen was given).  */
static inline int
mpt_mapped (const char *name)
{
  return mpt_file_has ("/proc/self/maps", name);
}

#endif
