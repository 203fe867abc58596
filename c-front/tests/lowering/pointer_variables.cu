// args: --blockDim=64 --gridDim=1
// A pointer variable is its array seen from an offset in a fresh local: `p[i]`, `*p`,
// `*(p + i)`; `p = a + k`, `p += k` and `p++` move the offset.
__global__ void k(int *A, int n) {
  int tid = threadIdx.x;
  int *B = A + (tid / 32) * 32;
  const int *C = &A[64];
  int x = B[(tid + 1) % 32] + *(C + tid) + *C;
  int *D = B;
  D += n;
  D++;
  D = A + 200;
  A[128 + tid] = x + D[tid];
}
