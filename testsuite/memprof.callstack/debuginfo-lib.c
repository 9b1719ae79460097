/* A module built without the plugin, between the program's frames: its
   function `through' calls back the function it is given, by way of a
   static one, `relay', which only the symbol table names when the
   module has no DWARF (debuginfo.exp).  */

typedef void callback (void);

static __attribute__ ((noinline)) void
relay (callback *f)
{
  f ();
  __asm__ volatile ("");
}

void
through (callback *f)
{
  relay (f);
  __asm__ volatile ("");
}
