//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
//error: possible [a-z]+-[a-z]+ race on ps\[\d+\] \(bytes 8..11\)

// Each thread reads its neighbour's velocity, which the neighbour writes: a race on the
// `vel.x` field (bytes 8..11 of a 20-byte Particle).
struct Vec2 { float x, y; };
typedef struct { Vec2 pos; Vec2 vel; int alive; } Particle;

__global__ void advance(Particle *ps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float left = ps[i + 1].vel.x;
  ps[i].vel.x = left * 0.5f;
}
