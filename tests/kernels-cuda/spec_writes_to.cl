//pass
//--local_size=64 --num_groups=4 --no-inline

// A specification function (GPUVerify's `__spec_` names): its contract stands for a body
// kpl does not see. `__writes_to(p)` says it may write any element of p; its
// postconditions narrow that to the caller's own element and give the value, which the
// kernel then relies on.
void __spec_bump(__global int *p) {
  __requires(__no_read(p));
  __requires(__write_implies(p, __write_offset_bytes(p) / sizeof(int) == get_global_id(0)));
  __ensures(__write_implies(p, __write_offset_bytes(p) / sizeof(int) == get_global_id(0)));
  __ensures(p[get_global_id(0)] == __old_int(p[get_global_id(0)]) + 1);
  __writes_to(p);
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = 5;
  __spec_bump(A);
  __assert(A[get_global_id(0)] == 6);
  A[get_global_id(0)] = 0;
}
