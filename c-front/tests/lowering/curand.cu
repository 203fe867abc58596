// args: --blockDim=8 --gridDim=2
// cuRAND: a generator call reads and writes its state and gives an arbitrary number; an
// MTGP32 state gives each thread of a block its own word.
__global__ void k(curandState *xs, curandStateMtgp32_t *ms, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(1234, i, 0, &xs[i]);
  out[i] = curand_uniform(&xs[i]) + curand(&ms[blockIdx.x]);
}
