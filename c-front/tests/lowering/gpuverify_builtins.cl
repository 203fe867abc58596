// args: --local_size=8 --num_groups=1
// GPUVerify's helper functions: `__ite`, `__mod_pow2`, `__add_noovfl` (a predicate over
// two or more operands) and `__add_noovfl_unsigned_int` (a sum assumed not to overflow);
// `NAN` and `INFINITY`; `__return_val_int2()` of a vector result.
int2 inc(int2 v) {
  __ensures(__return_val_int2().x == v.x + 1);
  return v + 1;
}
__kernel void k(__global float *out, unsigned x, unsigned y) {
  __requires(__add_noovfl(x, y));
  unsigned s = __add_noovfl_unsigned_int(x, y);
  int2 w = inc((int2)(1, 2));
  out[get_local_id(0)] = __ite(s > 3, NAN, INFINITY) + __mod_pow2(x, 4) + w.x;
}
