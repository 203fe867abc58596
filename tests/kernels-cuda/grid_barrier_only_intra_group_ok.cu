//pass
//--blockDim=[32] --gridDim=[4] --only-intra-group

// With a grid barrier every block reaches, `--only-intra-group` still leaves out the race
// between blocks on `A[0]` (kpl verify without it reports that race).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *A, int *B) {
  if (threadIdx.x == 0) A[0] = blockIdx.x;
  cg::this_grid().sync();
  B[blockIdx.x * blockDim.x + threadIdx.x] = A[threadIdx.x];
}
