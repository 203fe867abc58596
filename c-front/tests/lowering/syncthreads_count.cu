// args: --blockDim=64 --gridDim=2
// __syncthreads_count/_and/_or: a barrier that also counts the threads whose predicate
// holds, through a shared counter of its own.
__global__ void k(int *out) {
  int n = __syncthreads_count(threadIdx.x % 4 == 0);
  int all = __syncthreads_and(threadIdx.x < 64);
  int any = __syncthreads_or(threadIdx.x == 63);
  out[blockIdx.x * 64 + threadIdx.x] = n + all + any;
}
