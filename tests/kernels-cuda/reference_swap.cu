//pass
//--blockDim=64 --gridDim=4

// Each thread swaps its own two elements through references (Rodinia's cfd passes its
// float3 values the same way): no two threads touch one element.
__device__ void swap(float &a, float &b) {
  float t = a;
  a = b;
  b = t;
}

__device__ void scale(float3 &v, const float &s) {
  v.x *= s;
  v.y *= s;
  v.z *= s;
}

__global__ void k(float *data, float3 *vs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  swap(data[2 * i], data[2 * i + 1]);
  float3 v = vs[i];
  scale(v, float(2));
  vs[i] = v;
}
