//pass
//--local_size=32 --num_groups=4

// A C `int` counter from 0 under a signed guard never goes negative: inference needs the
// guard as a signed bound (`slt`) and the counter as signed-monotone.
__kernel void k(__global int *out, int x, int y, int z) {
  for (int i = 0; i < (x ? y : z); i++) {
    __assert(i >= 0);
    out[get_global_id(0)] = i;
  }
}
