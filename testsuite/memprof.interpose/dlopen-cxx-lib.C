// Built by interpose.exp, without the plugin, into a shared object that
// dlopen-cxx-main.c loads: C++ news and deletes that the runtime sees
// only through its operators (cxx.c), in a library that brings
// libstdc++, and with it libgcc_s, into a C program.

#include <new>

static char *volatile sink;
static int *kept[10];

// Ten news of 4 ints, then five of them deleted.
extern "C" void
lib_news (void)
{
  for (int i = 0; i < 10; i++)
    kept[i] = new int[4];
  for (int i = 0; i < 5; i++)
    delete[] kept[i];
}

static const unsigned long long huge = 1ULL << 62;

// A new that fails with no new_handler: std::bad_alloc, caught here.
extern "C" int
lib_bad_alloc (void)
{
  try
    {
      sink = new char[huge];
    }
  catch (std::bad_alloc &)
    {
      return 1;
    }
  return 0;
}

struct out_of_memory
{
};

static void
throwing_handler ()
{
  throw out_of_memory ();
}

// A new_handler that throws its own exception, through the runtime's
// frames.
extern "C" int
lib_handler_throws (void)
{
  std::set_new_handler (throwing_handler);
  int caught = 0;
  try
    {
      sink = new char[huge];
    }
  catch (out_of_memory &)
    {
      caught = 1;
    }
  std::set_new_handler (nullptr);
  return caught;
}
