//pass
//--blockDim=128 --gridDim=4 --kernel=reduce<float>

// CUDA's `SharedMemory<T>` helper as its samples write it (a class template without data
// members whose conversion operator gives the dynamic shared memory, specialised for
// `double`), and a class whose member functions keep a running sum: a tree reduction
// with a barrier after each level is free of races.
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <> struct SharedMemory<double> {
  __device__ inline operator double *() {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }
};

template <class T> struct Sum {
  T total;
  __device__ void reset() { total = 0; }
  __device__ void add(T v) { total += v; }
  __device__ T value() const { return total; }
};

template <class T> __global__ void reduce(T *in, T *out, unsigned int n) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  Sum<T> s = {0};
  s.reset();
  if (i < n) s.add(in[i]);
  if (i + blockDim.x < n) s.add(in[i + blockDim.x]);
  sdata[tid] = s.value();
  __syncthreads();
  for (unsigned int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) {
      sdata[tid] = sdata[tid] + sdata[tid + k];
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

template __global__ void reduce<float>(float *, float *, unsigned int);
template __global__ void reduce<double>(double *, double *, unsigned int);
