/* trivial.c -- no allocation call at all: built with memprof-gcc it
   still has the runtime, and its report at exit.  */
int
main (void)
{
  return 0;
}
