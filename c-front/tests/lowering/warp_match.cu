// args: --blockDim=32 --gridDim=1
// `__match_any_sync` and `__match_all_sync` become KPL's `match_any`/`match_all`; a 64-bit
// value matches word by word (both must); `__match_all_sync`'s predicate is its result's
// being nonzero, written through its pointer.
__global__ void k(int *a, long long *b) {
  unsigned any = __match_any_sync(0xffffffff, a[threadIdx.x]);
  int all;
  unsigned same = __match_all_sync(0xffffffff, b[0], &all);
  a[threadIdx.x] = any + same + all;
}
