//pass
//--blockDim=32 --gridDim=2

// isnan, isinf, isfinite, isnormal and signbit are exact on a float's bits: the verifier
// proves what they say of known bits, and of any input that one class excludes another.

__global__ void k(float *a, int *out) {
  float x = a[blockIdx.x * blockDim.x + threadIdx.x];
  float inf = __int_as_float(0x7f800000);
  float nan = __int_as_float(0x7fc00000);
  float tiny = __int_as_float(1);
  __assert(isinf(inf) && !isnan(inf) && !isfinite(inf) && isinf(-inf));
  __assert(isnan(nan) && !isinf(nan) && !isfinite(nan) && !isnormal(nan));
  __assert(isfinite(1.5f) && isnormal(1.5f) && !isnormal(0.0f) && !isnormal(tiny) && isfinite(tiny));
  __assert(signbit(-2.0f) && !signbit(2.0f) && signbit(-0.0f));
  __assert(!(isnan(x) && isinf(x)));
  __assert(isfinite(x) || isnan(x) || isinf(x));
  out[blockIdx.x * blockDim.x + threadIdx.x] = isnan(x) + 2 * isinf(x);
}
