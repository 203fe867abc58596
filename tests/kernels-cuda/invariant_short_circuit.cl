//xfail:GPUVERIFYVCGEN_ERROR
//--local_size=16 --num_groups=2 --no-infer
//invariant_short_circuit.cl:13:8:[\s]+user-specified invariant does not appear at loop head
//use `&`, `\|` or `__implies`

// GPUVerify's rule, kept for CUDA and OpenCL files: `&&`, `||` and `?:` in an invariant
// are branches in GPUVerify's translation, so it is not an invariant of the loop head;
// the error says so in GPUVerify's words and at its place, and says how to write it.

__kernel void strided(__local float *p) {
  size_t tid = get_local_id(0);
  for (unsigned i = tid;
       __invariant((i >= tid) && (i % get_local_size(0) == tid)),
       i < 100; i += get_local_size(0)) {
    p[i] = 0.0f;
  }
}
