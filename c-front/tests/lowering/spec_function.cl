// args: --pointer-bitwidth=32 --local_size=8 --num_groups=2
// A GPUVerify specification function (its name starts with `__spec_`): a call checks its
// `__requires` and assumes its `__ensures` at its end (they describe what it does); it is
// never checked on its own. Its memory effects (`__writes_to`) are not read yet.
int __spec_next(int x) {
  __requires(x >= 0);
  __ensures(__return_val_int() > __old_int(x));
}

__kernel void k(__global int *A) {
  int y = __spec_next(get_local_id(0));
  __assert(y > get_local_id(0));
  A[get_global_id(0)] = y;
}
