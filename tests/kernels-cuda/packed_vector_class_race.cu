//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//confirmed write-write race on out
//
// packed_vector_class.cu with threads 4 elements apart: each thread's 16-byte store
// (8 bf16 elements of 2 bytes) overlaps its neighbour's, with other values. kpl once took
// a bf16 for a 4-byte word here, and called this kernel verified.
#include <cuda_bf16.h>

template <class E>
struct alignas(16) Vec16 {
  Vec16() = default;
  __device__ explicit Vec16(int4 bits) { memcpy(&data, &bits, sizeof(bits)); }
  __device__ static Vec16 filled(E v) {
    Vec16 r;
    for (int k = 0; k < count; ++k) r.data[k] = v;
    return r;
  }
  __device__ E &operator[](int k) { return data[k]; }
  __device__ const E &operator[](int k) const { return data[k]; }
  __device__ int4 bits() const {
    int4 b;
    memcpy(&b, &data, sizeof(b));
    return b;
  }
  static constexpr const int count = sizeof(int4) / sizeof(E);
  E data[count];
};

typedef __nv_bfloat16 elem;
typedef Vec16<elem> v16;

template <class E>
__device__ Vec16<E> load16(const E *p) { return Vec16<E>{*reinterpret_cast<const int4 *>(p)}; }
template <class E>
__device__ void store16(E *p, Vec16<E> v) { *reinterpret_cast<int4 *>(p) = v.bits(); }

__global__ void scale(elem *out, const elem *in, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4; // 4, not 8: neighbours overlap
  if (i + v16::count <= n) {
    v16 a = load16(in + i);
    v16 r = v16::filled((elem)0.0f);
    for (int k = 0; k < a.count; ++k) {
      r[k] = (elem)(2.0f * (float)a[k] + (float)threadIdx.x);
    }
    store16(out + i, r);
  }
}
