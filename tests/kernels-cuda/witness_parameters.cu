//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=2
//Bitwise values of parameters of 'scaled':
//n = 7
//m = 35

// After a defect, GPUVerify's text lists the witness's scalar parameters in declaration
// order: the assertion fails only where m is 5 * n, and n is 7.
__global__ void scaled(unsigned n, unsigned m, int *out) {
  __requires(n == 7);
  __assert(n * 5 != m);
  out[threadIdx.x + blockIdx.x * blockDim.x] = n;
}
