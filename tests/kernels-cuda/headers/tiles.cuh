// A header of the include_*.cu kernels.
#ifndef TILES_CUH
#define TILES_CUH
#define TILE 16
__device__ void store_neighbour(int *out, int v) {
  out[(threadIdx.x + 1) % TILE] = v;
}
__device__ void store_own(int *out, int v) {
  out[threadIdx.x] = v;
}
#endif
