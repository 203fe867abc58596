// args: --pointer-bitwidth=32 --local_size=16 --num_groups=4
// GPUVerify's access predicates over KPL's `written`, `was_read`, `write_index`,
// `read_index` (byte offsets are word indices times 4).
kernel void foo(global int *p, global int *q) {
  for (unsigned i = 0;
       __global_invariant(__write_implies(p, (__write_offset_bytes(p) / sizeof(int)) % get_global_size(0) == get_global_id(0))),
       __invariant(__no_read(p)), __invariant(__read_implies(q, __read_offset_bytes(q) == 0) | !__read(q)),
       i < 8; i++) {
    p[get_global_size(0) * i + get_global_id(0)] = q[0];
  }
  __assert(__implies(__write(p), !__no_write(p)));
}
