//pass
//--gridDim=2 --blockDim=256

// A file-scope pointer variable is one word of global memory: its storage, `&next`, can
// be added to atomically (a bump allocator's cursor kept in the pointer itself). Without
// a memory space (`count` below) device code may not name a variable in nvcc, but
// GPUVerify reads it as global memory, and kpl does too, saying so.

__device__ char *next;
unsigned int count;

__global__ void bump(unsigned int n) {
  atomicAdd((unsigned int *)&next, n);
  atomicAdd(&count, 1);
}
