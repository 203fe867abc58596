//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//write-write race on counters

// A member function writes its object's fields: called on `counters[threadIdx.x / 2]`,
// two threads update the same object, a race on the array the objects live in.
struct Counter {
  unsigned int hits;
  unsigned int last;
  __device__ void hit(unsigned int who) {
    hits = hits + 1;
    this->last = who;
  }
};

__global__ void count(Counter *counters) {
  counters[threadIdx.x / 2].hit(threadIdx.x);
}
