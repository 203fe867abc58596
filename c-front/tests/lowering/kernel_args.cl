// args: --local_size=2 --num_groups=1 --kernel-args=foo,0x3,0x10
// GPUVerify's --kernel-args: the scalar params' values, in order, as `requires`.
kernel void foo(local int *A, int x, unsigned y) {
  A[get_local_id(0)] = x + y;
}
