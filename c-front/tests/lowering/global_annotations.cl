// args: --pointer-bitwidth=32 --local_size=8 --num_groups=2
// GPUVerify's unpredicated annotations: `__global_assert` is a `global assert` (every
// thread checks it, enabled or not); a device function's `__global_requires` is checked
// that way at each call and its `__global_ensures` once the inlined body ends; a kernel's
// leading `__global_requires` is a `requires`. `__exclusive(x)` is `!(x && other(x))`.
void bar(int x) {
  __global_requires(x == 100);
  __global_ensures(x == 100);
}

__kernel void k(int n) {
  __global_requires(n > 0);
  int z = 100;
  if (get_local_id(0) % 2 == 0) {
    bar(z);
  }
  __global_assert(__exclusive(get_local_id(0) == 4) | get_group_id(0) != __other_int(get_group_id(0)));
}
