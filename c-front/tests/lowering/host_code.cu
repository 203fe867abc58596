// args: --blockDim=128 --gridDim=4
// Host code in a .cu file (`main`, functions that launch kernels or call the CUDA
// runtime) is skipped with a note; a launch `k<N><<<...>>>` names a template instance.
// A host function template's explicit instantiation is host code too; a string may go on
// past a backslash-newline.
template <int N>
__global__ void add(int *a) {
  a[blockIdx.x * blockDim.x + threadIdx.x] += N;
}

void launch(int *d) {
  add<7><<<4, 128>>>(d);
}

template <typename T> void zero(T *p, int n) { for (int i = 0; i < n; i++) p[i] = 0; }
template void zero<float>(float *p, int n);

void usage() {
  printf("usage: add [options]\n\
  (no options yet)\n");
}

int main() {
  int *d;
  cudaMalloc(&d, 512 * sizeof(int));
  launch(d);
  cudaFree(d);
  return 0;
}
