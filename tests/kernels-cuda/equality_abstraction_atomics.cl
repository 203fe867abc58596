//xfail:GPUVERIFYVCGEN_ERROR
//--local_size=64 --num_groups=2 --equality-abstraction
//GPUVerify: error: --equality-abstraction cannot be used with atomics\.

// GPUVerify refuses its equality abstraction for a kernel with atomics, and so does kpl
// for GPUVerify's languages (a `.kpl` kernel with atomics takes the option).

kernel void count(global int *A, global int *out) {
  atomic_inc(A);
  out[get_global_id(0)] = 1;
}
