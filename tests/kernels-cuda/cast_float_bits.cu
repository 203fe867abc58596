//pass
//--blockDim=64 --gridDim=1

// A float's bits through __float_as_int/__int_as_float and through an `unsigned int *`
// view of a float array: the same words, so identities about the bits are proved for
// every input (the verifier knows nothing about float arithmetic, but these need none).

__global__ void flip_sign(float *f, int x) {
  unsigned int t = threadIdx.x;
  __assert(__float_as_int(1.0f) == 0x3f800000);
  __assert(__float_as_int(__int_as_float(0x40000000)) == __float_as_int(2.0f));
  __assert(__float_as_int(__int_as_float(x)) == x);
  float old = f[t];
  unsigned int *bits = (unsigned int *)f;
  bits[t] ^= 0x80000000u;
  __assert(__float_as_uint(f[t]) == (__float_as_uint(old) ^ 0x80000000u));
  __assert(((int *)f)[t] == __float_as_int(f[t]));
}
