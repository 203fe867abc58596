//xfail:NOT_ALL_VERIFIED
//--blockDim=512 --gridDim=1
//error: possible write-write race on a\[

// An 8-bit index wraps: threads t and t + 256 write the same element.
__global__ void k(int *a) {
  unsigned char i = threadIdx.x;
  a[i] = threadIdx.x;
}
