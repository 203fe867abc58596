//pass
//--local_size=64 --num_groups=2

// 64-bit division and remainder by constants that are not powers of two (PPCG writes
// `(c0 - 1) / 5`, `c0 % 3`, `/ 3145728`): exact, truncating toward zero. The writes are
// race-free only because the quotients are exact.

kernel void k(global int *out) {
  long i = get_global_id(0);
  out[(3 * i + 2) / 3] = 1;
  out[128 + (long)((-5 * i - 4) / 5) + 127] = 2;
  out[256 + (i * 3145728 + 3145727) / 3145728] = 3;
  out[512 + (3 * i + 1) % 3 * 200 + i] = 4;
}
