//pass
//--blockDim=32 --gridDim=1

// Device code sees `__CUDA_ARCH__`, as under nvcc: 700 (Volta, whose independent thread
// scheduling kpl assumes without --warp-sync), so code guarded for newer GPUs is read.

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 350
#error Unexpected __CUDA_ARCH__
#endif

__global__ void arch(int *a) {
#if __CUDA_ARCH__ >= 700
  a[threadIdx.x] = __CUDA_ARCH__ / 100;
#else
  a[threadIdx.x] = 0;
#endif
  __assert(a[threadIdx.x] == 7);
}
