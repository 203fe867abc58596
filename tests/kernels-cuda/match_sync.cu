//pass
//--blockDim=64 --gridDim=2

// Warp-aggregated atomics: the lanes with the same key find each other with
// `__match_any_sync`, and only the lowest of them adds their count; `__match_all_sync`
// says whether the whole warp has one key (then lane 0 records it).

__global__ void count_keys(const int *keys, unsigned *counts, int *uniform_key) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[i] & 15;
  unsigned peers = __match_any_sync(0xffffffff, key);
  unsigned lane = threadIdx.x % 32;
  int leader = __ffs(peers) - 1;
  if (lane == leader) {
    atomicAdd(&counts[key], __popc(peers));
  }
  int all;
  unsigned whole = __match_all_sync(0xffffffff, key, &all);
  if (all && lane == 0) {
    uniform_key[i / 32] = key;
  }
}
