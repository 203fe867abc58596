// args: --local_size=8 --num_groups=1
// OpenCL's vloadN(offset, p) reads p[offset*N] .. p[offset*N + N-1] as a vector;
// vstoreN(v, offset, p) writes them.
__kernel void k(__global float *in, __global float *out) {
  size_t i = get_local_id(0);
  float4 v = vload4(i, in);
  vstore4(v * 2.0f, i, out);
}
