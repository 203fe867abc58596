//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//error: possible write-write race on out\[

// A struct copy's pointer moves, and the write through the moved copy overlaps another
// thread's element.

struct View {
  int *data;
};

__global__ void k(int *out) {
  View v;
  v.data = out;
  View w = v;
  w.data += threadIdx.x;
  v.data[threadIdx.x] = 1;
  w.data[threadIdx.x] = 2;
}
