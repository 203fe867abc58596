//pass
//--blockDim=64 --gridDim=2

// C++ operator functions as CUDA's helper_math.h writes them, and on a complex-number struct:
// `a + b`, `a * s`, `-a`, `a += b` and `a == b` call the file's operator function that fits
// the operands. Each thread reads and writes its own elements only.

struct Complex {
    float re, im;
};

__device__ Complex operator*(Complex a, Complex b)
{
    Complex r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    return r;
}
__device__ Complex operator*(Complex a, float s)
{
    Complex r = {a.re * s, a.im * s};
    return r;
}
__device__ Complex operator-(Complex a)
{
    Complex r = {-a.re, -a.im};
    return r;
}
__device__ void operator+=(Complex &a, Complex b)
{
    a.re += b.re;
    a.im += b.im;
}
__device__ bool operator==(Complex a, Complex b) { return a.re == b.re && a.im == b.im; }

inline __host__ __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
inline __host__ __device__ float3 operator*(float3 a, float b) { return make_float3(a.x * b, a.y * b, a.z * b); }
inline __host__ __device__ void operator+=(float3 &a, float3 b)
{
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
}

__global__ void step(Complex *z, float3 *pos, const float3 *vel, float dt)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    Complex c = z[i];
    Complex w = c * c * 2;
    w += -c;
    if (!(w == c)) {
        z[i] = w;
    }
    pos[i] += vel[i] * dt + pos[i];
}
