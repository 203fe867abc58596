//pass
//--local_size=32 --num_groups=1

// PPCG's preconditions use `__ite` over 64-bit values (its `floord`): a pure helper, so
// the nested `__requires` is still a precondition, and `__ite` selects both words.

kernel void k(global int *A, long c0) {
  int t = get_local_id(0);
  {
    __requires(__ite(c0 < 0, -((-c0 + 2) / 3), c0 / 3) != 0);
    A[(c0 < 0 ? -((-c0 + 2) / 3) : c0 / 3) == 0 ? 0 : t] = t;
  }
}
