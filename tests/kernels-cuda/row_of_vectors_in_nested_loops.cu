//pass
//--blockDim=32 --gridDim=64 --kernel-args=rows,1000,1024

// Each group writes its row four elements per step of its threads, in a nested loop whose
// outer condition calls a function (`i < ceil_div(V, 4)`, which C lowers to a `while
// true` that breaks), as llm.c's fused classifier does: race-free because each thread's
// writes stay in its row (`row * P` up to `4 * ceil_div(V, 4)`, within `P`) and in its own
// columns (`(element - row * P) / 4` is its thread id modulo 32). It needs the outer
// loop's guard read from its `break`, and both facts about the logged write over the
// nested loop, kept by the nested loop too.

__device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }

__global__ void rows(float *out, int V, int P) {
    int row = blockIdx.x;
    for (int i = threadIdx.x; i < ceil_div(V, 4); i += blockDim.x) {
        for (int k = 0; k < 4; ++k) {
            int element = i * 4 + k;
            if (element < V) {
                out[row * P + element] = (float)element;
            }
        }
    }
}
