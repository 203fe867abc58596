//xfail:CLANG_ERROR
//--blockDim=32 --gridDim=1
//undeclared_function.cu:10:3:[\s]+error: use of undeclared identifier 'scale'
//no function named `scale`

// A call of a function the file does not have: kpl's error, and clang's words (what
// GPUVerify reports) at the same place.

__global__ void k(float *a) {
  scale(a, threadIdx.x);
}
