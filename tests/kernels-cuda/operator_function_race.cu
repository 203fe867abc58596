//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//race

// `operator+=` takes its left operand by reference: `acc[threadIdx.x + 1] += v` writes the
// element the next thread reads and writes through the same operator.

inline __device__ void operator+=(float2 &a, float2 b)
{
    a.x += b.x;
    a.y += b.y;
}

__global__ void accumulate(float2 *acc, const float2 *v)
{
    acc[threadIdx.x + 1] += v[threadIdx.x];
    acc[threadIdx.x] += v[threadIdx.x];
}
