//xfail:NOT_ALL_VERIFIED
//
//launch at line 24: grid 8, block 32\): verified
//launch at line 24: grid 4, block 64\): race
//
// A grid computed in host code from a class's constant member, through a typedef of a
// class template's instance (`vec8::count`, 16 bytes of 2-byte bf16 elements: 8), as
// llm.c's `ceil_div(N, block_size * x128::size)`. Each thread handles `count` elements;
// lanes 32 apart share a chunk, so only the block of 64 races.
template <class E>
struct Chunk {
  static constexpr const int count = sizeof(int4) / sizeof(E);
  E data[count];
};
typedef __nv_bfloat16 bf16;
typedef Chunk<bf16> vec8;

__global__ void zero(bf16 *a, int n) {
  int i = (blockIdx.x * 32 + threadIdx.x % 32) * vec8::count;
  if (i < n) *reinterpret_cast<int4 *>(a + i) = make_int4(threadIdx.x, 0, 0, 0);
}
void run(bf16 *a, int n, int block_size) {
  int grid = (n + block_size * vec8::count - 1) / (block_size * vec8::count);
  zero<<<grid, block_size>>>(a, n);
}
int main() {
  bf16 *a;
  run(a, 2048, 32);
  run(a, 2048, 64);
  return 0;
}
