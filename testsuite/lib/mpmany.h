/* mpmany.h -- MPT_SITES malloc sites in one function, for the tests of
   site numbering: #include after mptest.h.  mpt_many () runs each site
   once, allocating 1 byte and freeing it, in the function "mpt_many".  */

#ifndef MPMANY_H
#define MPMANY_H

static __thread void *volatile mpt_sink;   /* per thread: no shared frees */

#define MPT_A1 mpt_sink = malloc (1); free (mpt_sink);
#define MPT_A10 MPT_A1 MPT_A1 MPT_A1 MPT_A1 MPT_A1 \
                MPT_A1 MPT_A1 MPT_A1 MPT_A1 MPT_A1
#define MPT_A100 MPT_A10 MPT_A10 MPT_A10 MPT_A10 MPT_A10 \
                 MPT_A10 MPT_A10 MPT_A10 MPT_A10 MPT_A10
#define MPT_A1000 MPT_A100 MPT_A100 MPT_A100 MPT_A100 MPT_A100 \
                  MPT_A100 MPT_A100 MPT_A100 MPT_A100 MPT_A100
#define MPT_SITES 5000

static void
mpt_many (void)
{
  MPT_A1000 MPT_A1000 MPT_A1000 MPT_A1000 MPT_A1000
}

#endif
