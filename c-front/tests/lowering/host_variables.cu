// args: --blockDim=32
// A host variable (no memory space) that device code names is read as a `__device__`
// variable, as GPUVerify reads it, under a KPL name of its own (reports give its C name);
// one that device code only declares again (the parameter `n`, the local `d`) stays host
// code, skipped.
int n;
float d;
unsigned count;
char *buffer;

__global__ void k(float *out, int n) {
  float d = out[threadIdx.x];
  atomicAdd(&count, 1);
  atomicAdd((unsigned int *)&buffer, n);
  out[threadIdx.x] = d * n;
}
