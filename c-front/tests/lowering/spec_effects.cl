// args: --pointer-bitwidth=32
// GPUVerify's specification functions: `__writes_to(p)` and `__reads_from(p)` are unknown
// accesses to the array p points into (`havoc writes A;`, `havoc reads B;`); the
// preconditions are checked, the postconditions assumed at the call's end, those that read
// no memory first.
void __spec_update(__global int *p, __global int *q) {
  __requires(__no_write(p));
  __ensures(p[get_global_id(0)] == __old_int(p[get_global_id(0)]) + 1);
  __ensures(__write_implies(p, __write_offset_bytes(p) / sizeof(int) == get_global_id(0)));
  __writes_to(p);
  __reads_from(q);
}

__kernel void k(__global int *A, __global int *B) {
  __spec_update(A, B);
}
