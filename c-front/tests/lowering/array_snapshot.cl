// args: --pointer-bitwidth=32
// GPUVerify's `__array_snapshot(dst, src)`: KPL's ghost copy `snapshot dst := src;`.
__kernel void k(__global int *A) {
  __local int L[64];
  __local int L_ghost[64];
  L[get_local_id(0)] = A[get_global_id(0)];
  __array_snapshot(L_ghost, L);
  __assert(L[get_local_id(0)] == L_ghost[get_local_id(0)]);
}
