// args: --blockDim=32 --kernel=fill<32,float>
// `--kernel=k<args>` names an instance the file does not write out.
template <unsigned int Block, typename T>
__global__ void fill(T *out) {
  out[blockIdx.x * Block + threadIdx.x] = (T)0;
}
