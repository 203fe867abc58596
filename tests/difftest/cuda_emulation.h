/* A CPU emulation of the part of CUDA that `kpl emit --cuda` programs use, so that tests
   can compile them as C++ and run them where there is no nvcc and no GPU. Blocks run one
   after another; the threads of a block are real threads meeting at a std::barrier, so
   __syncthreads() has its meaning and a `static` array is the block's shared memory.
   The test rewrites `K<<<G, B>>>(ARGS);` into `kpl_emu_launch(G, B, [&] { K(ARGS); });`. */
#include <barrier>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
typedef int cudaError_t;
enum { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost };

static thread_local dim3 threadIdx, blockIdx;
static dim3 blockDim, gridDim;
static std::barrier<> *kpl_emu_barrier;

#define __global__
#define __device__
#define __shared__ static

inline void __syncthreads() { kpl_emu_barrier->arrive_and_wait(); }
inline float __uint_as_float(unsigned a) { float f; std::memcpy(&f, &a, 4); return f; }
inline unsigned __float_as_uint(float f) { unsigned a; std::memcpy(&a, &f, 4); return a; }

/* Atomics: one lock for all, which is atomic enough for a correctness emulation. */
static std::mutex kpl_emu_atomic_lock;
template <class T, class F> T kpl_emu_rmw(T *p, F f) {
  std::lock_guard<std::mutex> g(kpl_emu_atomic_lock);
  T old = *p;
  *p = f(old);
  return old;
}
inline unsigned atomicAdd(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o + v; }); }
inline unsigned atomicSub(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o - v; }); }
inline unsigned atomicExch(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned) { return v; }); }
inline unsigned atomicMin(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o < v ? o : v; }); }
inline unsigned atomicMax(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o > v ? o : v; }); }
inline int atomicMin(int *p, int v) { return kpl_emu_rmw(p, [=](int o) { return o < v ? o : v; }); }
inline int atomicMax(int *p, int v) { return kpl_emu_rmw(p, [=](int o) { return o > v ? o : v; }); }
inline unsigned atomicInc(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o >= v ? 0u : o + 1u; }); }
inline unsigned atomicDec(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return (o == 0u || o > v) ? v : o - 1u; }); }
inline unsigned atomicCAS(unsigned *p, unsigned c, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o == c ? v : o; }); }
inline unsigned atomicAnd(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o & v; }); }
inline unsigned atomicOr(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o | v; }); }
inline unsigned atomicXor(unsigned *p, unsigned v) { return kpl_emu_rmw(p, [=](unsigned o) { return o ^ v; }); }

template <class T> cudaError_t cudaMalloc(T **p, size_t n) { *p = (T *)std::calloc(n ? n : 1, 1); return *p ? 0 : 2; }
inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) { std::memcpy(d, s, n); return 0; }
inline cudaError_t cudaGetLastError() { return 0; }
inline cudaError_t cudaDeviceSynchronize() { return 0; }
inline const char *cudaGetErrorString(cudaError_t) { return "emulated CUDA error"; }

template <class F> void kpl_emu_launch(dim3 g, dim3 b, F body) {
  gridDim = g;
  blockDim = b;
  for (unsigned bz = 0; bz < g.z; bz++)
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++) {
        std::barrier<> bar(b.x * b.y * b.z);
        kpl_emu_barrier = &bar;
        std::vector<std::thread> threads;
        for (unsigned z = 0; z < b.z; z++)
          for (unsigned y = 0; y < b.y; y++)
            for (unsigned x = 0; x < b.x; x++)
              threads.emplace_back([=] {
                blockIdx = dim3(bx, by, bz);
                threadIdx = dim3(x, y, z);
                body();
              });
        for (auto &t : threads) t.join();
      }
}
