// A block whose shape the host code computes with `max` and `std::min` of constants, as
// llm.c's `fused_residual_forward6` does: 32 x 8 x 2 threads, each writing its own element,
// read back by its neighbour after the barrier.
#include <algorithm>

template <class ElementType>
struct alignas(16) Packed128 {
    static constexpr const int size = sizeof(int4) / sizeof(ElementType);
    ElementType payload[size];
};

__global__ void shift(float *out, int n) {
    __shared__ float tile[512];
    Packed128<float> unused;
    int t = threadIdx.x + 32 * (threadIdx.y + blockDim.y * threadIdx.z);
    tile[t] = (float)t;
    __syncthreads();
    int i = blockIdx.x * 512 + t;
    if (i < n)
        out[i] = tile[(t + 1) % 512];
}

int main() {
    int C = 768, block_size = 512;
    int warps_per_token = std::max(1, C / 4 / 32);
    int total_warps = std::min(block_size / 32, 1024 / 32);
    int block_z = max(1, total_warps / warps_per_token);
    int block_y = max(1, total_warps / block_z);
    int n = 4096;
    float *out;
    cudaMalloc(&out, n * sizeof(float));
    shift<<<n / 512, dim3(32, block_y, block_z)>>>(out, n);
    return 0;
}
