__device__ int broken(int x) {
  return x +;
}
