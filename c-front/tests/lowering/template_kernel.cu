// args: --blockDim=64 --gridDim=2
// A kernel template is instantiated for each argument list written in the file (here an
// explicit instantiation); a device template for each `f<...>` call. Value arguments are
// substituted in parentheses, type arguments as written.
template <typename T, int Scale = 2>
__device__ T scaled(T x) {
  return x * Scale;
}

template <unsigned int Block, typename T>
__global__ void fill(T *out) {
  __shared__ T tile[Block];
  tile[threadIdx.x] = scaled<T>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * Block + threadIdx.x] = tile[Block - 1 - threadIdx.x];
}

template __global__ void fill<64, int>(int *);
