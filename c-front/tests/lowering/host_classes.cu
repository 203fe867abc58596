// args: --blockDim=32 --gridDim=1
// Host classes (a `class` or `struct` with member functions, none `__device__`, such as
// helper_cuda.h's exception class template) are skipped with a note; a struct of data is
// kept.
#include <stdexcept>
template <class Std_Exception>
class Exception : public Std_Exception {
 public:
  static void throw_it(const char *file, const int line, const char *detailed = "-");
  virtual ~Exception() throw() {}
 private:
  explicit Exception(const char *detailed) : Std_Exception(detailed) {}
};
class Timer { public: void start() { t = 0; } int t; };
struct Pair { int a; float b; };
__global__ void k(Pair *p) { p[threadIdx.x].a = 1; }
