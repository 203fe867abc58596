//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//error: this assertion might not hold

// An input may be a NaN: the assertion fails for such an element.

__global__ void k(float *a) {
  __assert(!isnan(a[threadIdx.x]));
}
