//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=64 --kernel-args=normalise,100000
//confirmed read-write race on s\[0\] \(intra-group\)
//read by thread (3[2-9]|[4-9][0-9]|1[0-2][0-9]) of group
//write by thread 0 of group
//
// Every thread reads the block's total from `s[0]`, and after two long loops each warp's
// first lane writes its own slot, warp 0's being `s[0]`, with no barrier between (llm.c's
// `softmax_forward_kernel4`): a race between warps that only executions past the loops
// show, which the interpreter shows replaying one group of the launch.

__global__ void normalise(int *out, const int *in, int C) {
    __shared__ int s[4];
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int *row = in + blockIdx.x * C;
    int m = 0;
    for (int i = threadIdx.x; i < C; i += blockDim.x) m += row[i];
    if (lane == 0) s[w] = m;
    __syncthreads();
    int total = s[0];
    for (int i = threadIdx.x; i < C; i += blockDim.x) out[blockIdx.x * C + i] = row[i] - total;
    int again = 0;
    for (int i = threadIdx.x; i < C; i += blockDim.x) again += out[blockIdx.x * C + i];
    if (lane == 0) s[w] = total + 1;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x * C] = again + s[1];
}
