// args: --blockDim=32
// Converting a pointer to an integer (llm.c's bf16 `atomicAddX` rounds an address down
// to 4 bytes this way) is outside the subset: kpl does not model addresses as numbers.
__global__ void k(float *a) {
  uintptr_t p = reinterpret_cast<uintptr_t>(a);
  a[threadIdx.x] = (float)(p & 3);
}
