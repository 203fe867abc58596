//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1 --no-inline
//modular_weak_contract.cu:22:3: error: this assertion might not hold
//calls of `bump` use only the contract \(--no-inline\); the interpreter runs the bodies
//0 confirmed by the interpreter

// Under --no-inline a call of a function with a postcondition uses only its contract
// (GPUVerify's modular mode): `bump` returns x + 1, but all its contract says is that
// the result is above x, so the caller cannot know that it is 4. The interpreter, which
// runs the body, does not reproduce the report. Without --no-inline the call is inlined
// and the kernel verifies (modular_weak_contract_inlined.cu).
__device__ int bump(int x) {
  __requires(x < 1000);
  __ensures(__return_val_int() > x);
  return x + 1;
}

__global__ void k(int *out) {
  int b = bump(3);
  out[threadIdx.x] = b;
  __assert(b > 3);
  __assert(b == 4);
}
