//pass
//--blockDim=64 --gridDim=4

// An array of structs: each thread updates its own particle, field by field and by a
// whole-struct copy; a per-block total goes through a shared struct.
struct Vec2 { float x, y; };
typedef struct { Vec2 pos; Vec2 vel; int alive; } Particle;

__device__ Vec2 step(Vec2 p, Vec2 v) {
  Vec2 r = { p.x + v.x, p.y + v.y };
  return r;
}

__global__ void advance(Particle *ps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Particle p = ps[i];
    if (p.alive) {
      p.pos = step(p.pos, p.vel);
    }
    ps[i] = p;
    (ps + i)->alive = p.alive;
  }
}
