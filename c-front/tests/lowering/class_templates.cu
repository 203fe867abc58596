// args: --blockDim=64 --gridDim=2 --kernel=reduce<float>
// A class template is instantiated for each `S<T>` the file names, or taken from its
// explicit specialisation; CUDA's `SharedMemory<T>` helper (a class without data members
// whose conversion operator gives the dynamic shared memory) is read as a function.
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
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

template <typename T> struct Pair {
  T first;
  T second;
};

template <class T> __global__ void reduce(T *in, T *out) {
  T *sdata = SharedMemory<T>();
  Pair<T> p;
  p.first = in[threadIdx.x];
  p.second = in[threadIdx.x + blockDim.x];
  sdata[threadIdx.x] = p.first + p.second;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      sdata[threadIdx.x] += sdata[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sdata[0];
}

template __global__ void reduce<float>(float *, float *);
template __global__ void reduce<double>(double *, double *);
