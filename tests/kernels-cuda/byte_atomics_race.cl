//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1
//possible write-atomic race on buf\[1\] \(byte 3\)

// The atomic through `(__global int *)(buf + 4)` covers bytes 4..7; work-item 7's
// plain write to byte 7 races with the others' atomics.

__kernel void counters(__global int *buf, int v) {
  __global char *c = (__global char *)buf;
  if (get_local_id(0) == 7) {
    c[7] = 1;
  } else {
    atomic_add((__global int *)(c + 4), v);
  }
}
