// args: --blockDim=32
// memcpy between identical layouts copies word for word; between layouts that differ it
// assembles each destination word from the source words holding its bytes (padding is
// arbitrary); a length that ends inside a word keeps that word's other bytes.
struct s1 { short x; char y; };
struct s2 { short x; short y; };

__global__ void k(s1 *in, s2 *out, s2 *back, int *ints) {
  unsigned int t = threadIdx.x;
  memcpy(&back[t], &out[t], sizeof(s2));
  memcpy(&out[t], &in[t], 4);
  memcpy(&out[t], &ints[t], 3);
  memset(ints + t, 1, sizeof(int));
}
