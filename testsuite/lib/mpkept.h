/* mpkept.h -- an object whose finaliser has not run, checked against
   Boehm's own view of it: #include after gc.h and mptest.h.

   Boehm is conservative: a scanned word that holds an object's address
   keeps it alive, and its finalisers with it.  Stale stack words can be
   cleared before each collection, but Boehm keeps such words of its own
   too (8.2's last_addr, the hint of its next mmap, holds the address of
   the first object of a heap section), and those a test cannot reach.
   So a test that requires every finaliser to run registers its objects
   hidden (so that its registry keeps none alive), and after its
   collections watches each object not yet finalised with a disappearing
   link, which Boehm clears when it finds the object unreachable.  After
   more collections, a link still set is an object Boehm keeps (the test
   allows one at most); a cleared link, or an object no longer a block,
   is one whose finaliser was lost.  */

#ifndef MPKEPT_H
#define MPKEPT_H

/* Watch OBJ, a hidden pointer to an object not finalised, with a
   disappearing link at *LINK; *LINK is 0 if OBJ is no longer one of
   Boehm's blocks (reclaimed without its finaliser).  */
static void
mpt_watch (GC_hidden_pointer *link, GC_hidden_pointer obj)
{
  void *p = (void *) GC_REVEAL_POINTER (obj);
  *link = GC_base (p) == p ? obj : 0;
  if (*link)
    CHECK_EQ (GC_general_register_disappearing_link ((void **) link, p),
              GC_SUCCESS);
}

#endif
