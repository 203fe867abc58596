// args: --local_size=4 --num_groups=1
// `v op= w` on vectors evaluates the place once (its index's effects happen once).
__kernel void k(__global float4 *p) {
  int i = get_local_id(0) * 2;
  p[i++] += (float4)(1.0f);
  p[i] *= 2.0f;
}
