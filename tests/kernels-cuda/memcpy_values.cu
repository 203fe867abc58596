//pass
//--blockDim=32 --gridDim=2

// memcpy and memset move C's bytes: between structs whose fields line up, between an int
// and two shorts (little-endian), from a float's bits, into a struct of four bytes, with
// a length held in a local. Every assertion is about bytes, so it holds for all inputs.
// (A copy from a struct with padding gives arbitrary bytes, which a device run cannot
// reproduce: the lowering golden `memcpy.cu` shows one.)

struct s1 { short x; short y; };
struct s2 { short x; short y; };           // 4 bytes: x at 0, y at 2
struct pix { unsigned char r, g, b, a; };  // 4 bytes

__global__ void bytes(s1 *in, s2 *out, int *ints, float *f, unsigned int *u, pix *p) {
  unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
  size_t len = 4;
  in[t].x = -2;
  in[t].y = 5;
  memcpy(&out[t], &in[t], len);
  __assert(out[t].x == -2 && out[t].y == 5);
  ints[t] = 0x12345678;
  memcpy(&out[t], &ints[t], sizeof(int));
  __assert(out[t].x == 0x5678 && out[t].y == 0x1234);
  memset(&out[t], 0xff, 3);
  __assert(out[t].x == -1 && out[t].y == 0x12ff);
  f[t] = 1.0f;
  memcpy(u + t, f + t, sizeof(float));
  __assert(u[t] == 0x3f800000);
  memset(&u[t], 0xab, 4);
  __assert(u[t] == 0xababababu);
  u[t] = 0x04030201;
  memcpy(&p[t], &u[t], 4);
  __assert(p[t].r == 1 && p[t].g == 2 && p[t].b == 3 && p[t].a == 4);
}
