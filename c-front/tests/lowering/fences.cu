// args: --blockDim=8 --gridDim=2
// Fences become KPL's `fence SCOPE;` (no effect under SDV; `kpl run --hb` reads them):
// `__threadfence_block` at group scope, `__threadfence` at device scope,
// `__threadfence_system` at system scope.
__global__ void k(int *data, volatile int *flag) {
  data[blockIdx.x] = 1;
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  flag[blockIdx.x] = 1;
}
