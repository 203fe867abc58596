// args: --blockDim=16 --gridDim=1
// 16-bit floats are opaque floats; their conversions give any value.
__global__ void k(const __half *H, __nv_bfloat16 *B, float *F) {
  F[threadIdx.x] = __half2float(H[threadIdx.x]) + (float)sizeof(__half);
  B[threadIdx.x] = __float2bfloat16(F[threadIdx.x]);
}
