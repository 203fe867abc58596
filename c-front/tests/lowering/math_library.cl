// args: --local_size=8 --num_groups=1
// Math functions (any variant: `f`, `native_`, `half_`, `__`) give arbitrary floats; their
// arguments are still evaluated, so their reads are checked.
__kernel void k(__global float *a) {
  int i = get_local_id(0);
  a[i] = native_exp(a[i]) + pow(2.0f, 3.0f) + ceil(0.5f);
}
