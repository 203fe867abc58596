// args: --blockDim=[8,4,2] --gridDim=[2,3]
__global__ void k(unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned j = blockIdx.y * blockDim.y + threadIdx.y;
  out[(j * gridDim.x * blockDim.x + i) * blockDim.z + threadIdx.z] = gridDim.y + blockIdx.z;
}
