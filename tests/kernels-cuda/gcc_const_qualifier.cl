//pass
//--local_size=64 --num_groups=2

// `__const` is GCC's and clang's other spelling of `const` (the AMD SDK writes it).

kernel void k(global int *out, __const global int *in, __const unsigned n) {
  __const unsigned i = get_global_id(0);
  if (i < n) {
    out[i] = in[i];
  }
}
