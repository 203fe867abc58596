// args: --local_size=8 --num_groups=2
// GPUVerify's `__old_int(e)` in a postcondition: the value of `e` at the function's
// entry, taken into a local of its own when the `__ensures` is met (first in the body),
// and compared at each return.
int bump(int p) {
  __ensures(__return_val_int() == __old_int(p) + 1);
  __ensures(p == __old_int(p) + 1);
  p = p + 1;
  return p;
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = bump(get_global_id(0));
}
