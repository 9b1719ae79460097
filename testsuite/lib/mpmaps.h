/* mpmaps.h -- what the process has mapped: #include after mptest.h.  */

#ifndef MPMAPS_H
#define MPMAPS_H

/* Whether the path of a mapping of the process contains NAME (a
   library's file name, or the path dlopen was given).  */
static inline int
mpt_mapped (const char *name)
{
  FILE *maps = fopen ("/proc/self/maps", "r");
  char line[4096];
  int found = 0;
  while (maps && fgets (line, sizeof line, maps))
    found |= strstr (line, name) != NULL;
  if (maps)
    fclose (maps);
  return found;
}

#endif
