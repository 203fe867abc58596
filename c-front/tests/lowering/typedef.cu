// args: --blockDim=8 --gridDim=1
// typedef names stand for their types (scalars, structs, pointers); enumerators are
// constants; sizeof knows structs (C's alignment) and vectors.
typedef int myint;
typedef unsigned int uint;    // names kpl predefines, defined as themselves
typedef unsigned char uchar;
typedef struct { myint a; char c; } S;
typedef float *fptr;
typedef struct Pair { int a, b; } Pair;  // C++: the tag names the type already
typedef int myint;            // C11: a typedef repeated with the same type
typedef float *fptr;
enum Mode { A, B = 4, C };
__global__ void k(S *s, fptr f, Pair *ps) {
  myint i = threadIdx.x;
  uint u = i;
  uchar c = u;
  enum Mode m = C;
  s[i].a = m + sizeof(S) + sizeof(float4) + sizeof(struct { double d; int x; });
  f[i] = 0.5f;
  ps[i].b = sizeof(Pair);
}
