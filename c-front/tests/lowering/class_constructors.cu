// args: --blockDim=16 --gridDim=1
// Constructors with a body are functions that make the object (`C__ctorN`, N its
// parameters): a temporary `C(a)` or `C{a}`, a declaration `C v(a);` or `C v{a};`, and
// `C v;` where a default constructor has a body. Member initialisers are assignments.
// A constant static member is its value at each use (`C::n`, `v.n`, `n` in the class).
struct Pair {
  int a, b;
  static constexpr int n = 2;
  __device__ Pair() : a(0), b(0) {}
  __device__ explicit Pair(int v) : a(v) { b = v + n; }
  __device__ Pair(int x, int y) { a = x; b = y; }
  __device__ int sum() const { return a + b; }
};
using P2 = Pair;

__global__ void k(int *out) {
  int t = threadIdx.x;
  Pair zero;
  Pair one(t);
  P2 two{t, 3};
  out[t * Pair::n] = zero.sum() + one.sum() + two.sum() + Pair{t}.a + P2(1, 2).b + one.n;
}
