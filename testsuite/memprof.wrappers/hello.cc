// hello.cc -- a C++ program for memprof-g++: its report comes whatever
// the plugin rewrote in it.
#include <iostream>
#include <string>

int
main ()
{
  std::string s ("hello from memprof-g++");
  std::cout << s << std::endl;
  return 0;
}
