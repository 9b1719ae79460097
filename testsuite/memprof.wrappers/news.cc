// news.cc -- C++'s operators in a -static program of memprof-g++, where
// the runtime's are the only ones (libstdc++.a's stay out of the link):
// ten news of 16 bytes; a failed new that throws std::bad_alloc; one
// whose new_handler throws its own exception through the runtime's
// frames (unwinder.c's personality, from libgcc_eh); a nothrow new whose
// handler gives up, which returns NULL.  Built with LIBRARY_NEW, also a
// std::string that libstdc++.a's own code allocates, at a foreign site,
// or uncounted with interpose=0; without, so that no other use of
// libstdc++.a's functexcept.o (std::string's __throw_length_error)
// brings std::__throw_bad_alloc in with it.
#include <cstdio>
#include <new>
#ifdef LIBRARY_NEW
#include <string>
#endif

static char *volatile sink;
static int *kept[10];
static int handled;

struct out_of_memory
{
};

static void
throwing_handler ()
{
  throw out_of_memory ();
}

static void
giving_up ()
{
  handled++;
  std::set_new_handler (nullptr);
}

int
main ()
{
  for (int i = 0; i < 10; i++)
    kept[i] = new int[4];
  for (int i = 0; i < 10; i++)
    delete[] kept[i];
  const unsigned long long huge = 1ULL << 62;
  int caught = 0;
  try
    {
      sink = new char[huge];
    }
  catch (std::bad_alloc &)
    {
      caught++;
    }
  std::set_new_handler (throwing_handler);
  try
    {
      sink = new char[huge];
    }
  catch (out_of_memory &)
    {
      caught++;
    }
  std::set_new_handler (giving_up);
  sink = new (std::nothrow) char[huge];
  std::printf ("caught %d, nothrow %s after %d\n", caught,
               sink ? "a block" : "NULL", handled);
#ifdef LIBRARY_NEW
  std::string s (100, 'x');
  std::printf ("string %zu\n", s.size ());
#endif
  return 0;
}
