/* inline.h -- an inlined function of another file, for inline.c.  */

static inline __attribute__ ((always_inline)) int
scale (int x)
{
  return x * 3;
}
