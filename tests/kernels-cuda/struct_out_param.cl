//pass
//--local_size=32 --num_groups=2

// A device function that returns a struct through a pointer to the caller's variable
// (Rodinia's cfd passes `&velocity_i` so): the variable is the thread's own memory, so
// threads never share it, and what the callee writes is what the caller reads.

typedef struct { float x; float y; float z; } FLOAT3;

void compute_velocity(float density, FLOAT3 momentum, FLOAT3 *velocity) {
  velocity->x = momentum.x;
  velocity->y = momentum.y;
  velocity->z = density;
}

void zero(FLOAT3 *v) {
  memset(v, 0, sizeof(FLOAT3));
}

__kernel void flux(__global const float *density, __global FLOAT3 *out) {
  size_t i = get_global_id(0);
  FLOAT3 momentum = {1.0f, 2.0f, 3.0f};
  FLOAT3 velocity = {0.0f, 0.0f, 0.0f};
  compute_velocity(density[i], momentum, &velocity);
  __assert(as_uint(velocity.y) == as_uint(2.0f));
  __assert(as_uint(velocity.z) == as_uint(density[i]));
  out[i] = velocity;
  FLOAT3 cleared = {5.0f, 6.0f, 7.0f};
  zero(&cleared);
  __assert(as_uint(cleared.x) == 0 && as_uint(cleared.z) == 0);
}
