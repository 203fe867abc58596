//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4 --no-inline
//possible read-write race on A
//Read by work item.+from external source location

// `__reads_from(p)` with no postcondition on the reads: the specification function may
// have read any element of p, so another work item's later write races with it.
void __spec_peek(__global int *p) {
  __requires(__no_write(p));
  __reads_from(p);
}

__kernel void k(__global int *A) {
  __spec_peek(A);
  A[get_global_id(0)] = 1;
}
