// args: --blockDim=128 --gridDim=4
// Host code in a .cu file (`main`, functions that launch kernels or call the CUDA
// runtime) is skipped with a note; a launch `k<N><<<...>>>` names a template instance.
template <int N>
__global__ void add(int *a) {
  a[blockIdx.x * blockDim.x + threadIdx.x] += N;
}

void launch(int *d) {
  add<7><<<4, 128>>>(d);
}

int main() {
  int *d;
  cudaMalloc(&d, 512 * sizeof(int));
  launch(d);
  cudaFree(d);
  return 0;
}
