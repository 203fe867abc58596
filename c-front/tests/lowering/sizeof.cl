// args: --local_size=16 --num_groups=1
// sizeof of a scalar type is its size on the 64-bit targets, an unsigned constant.
__kernel void k(__global uint *out) {
  out[get_local_id(0)] = sizeof(int) + sizeof(float) * 16 + sizeof(char) + sizeof(unsigned int) + sizeof(double) + sizeof(int *);
}
