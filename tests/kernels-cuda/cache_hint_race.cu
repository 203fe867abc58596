//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//confirmed read-write race on a
//
// `__ldg` reads through the read-only cache, but what it reads is memory all the same:
// a neighbour's write races with it.
__global__ void k(float *a) {
    float x = __ldg(&a[(threadIdx.x + 1) % 64]);
    a[threadIdx.x] = x * 2.0f;
}
