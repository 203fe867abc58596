// args: --local_size=8 --num_groups=1
// In OpenCL C `__constant` qualifies the pointee's type: a write through it is a C error
// (clang's), not the defect a CUDA `__constant__` write is (constant_write.cu).
__kernel void k(__constant int *A) {
  A[get_local_id(0)] = 1;
}
