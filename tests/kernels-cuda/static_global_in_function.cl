//xfail:NOT_ALL_VERIFIED
//--local_size=[8] --num_groups=[1]
//confirmed write-write race on c\[0\]

// OpenCL 2.0's function-scope `static global`: one object for the whole NDRange.
void f(__global int *A) {
  static global int c;
  c = get_local_id(0);
  A[get_global_id(0)] = c;
}

__kernel void k(__global int *A) { f(A); }
