// args: --blockDim=32 --check-function=scale
// The kernel `--no-inline` builds to check `scale` on its own: arbitrary arguments per
// thread (a scalar, a pointer at an arbitrary element), the `__requires` assumed (a
// two-thread one too), the `__ensures` checked where the function returns.
__device__ int scale(int *p, int i, int k) {
  __requires(k > 0 & k < 8);
  __requires(__distinct_int(i));
  __ensures(__return_val_int() >= 0);
  if (i < 0) return 0;
  p[i] = i * k;
  return i;
}

__global__ void kernel_uses(int *a) {
  a[threadIdx.x] = scale(a, threadIdx.x, 2);
}
