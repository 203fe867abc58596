// args: --local_size=2 --num_groups=1
// OpenCL's shuffle and shuffle2: component i is the one mask[i] names, modulo the
// number of components chosen from (only the mask's low bits count).
__kernel void k(__global int4 *A, __global int8 *C, __global int4 *B) {
  int4 x = (int4)(10, 20, 30, 40);
  uint4 m = (uint4)(3, 2, 5, 0);
  A[get_global_id(0)] = shuffle(x, m);
  int4 y = (int4)(50, 60, 70, 80);
  C[get_global_id(0)] = shuffle2(x, y, (uint8)(7, 0, 4, 9, 1, 6, 2, 15));
}
