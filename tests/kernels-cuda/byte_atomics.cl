//pass
//--local_size=64 --num_groups=2

// Atomics through an `int *` view of a `char` buffer act on four bytes at once: every
// work-item adds to the int at bytes 0..3 and takes the maximum into bytes 4..7, while
// each writes its own byte from 8 on. No plain access touches a byte an atomic does.

__kernel void counters(__global char *buf, int v) {
  atomic_add((__global int *)buf, v);
  atomic_max((__global int *)(buf + 4), v);
  buf[8 + get_global_id(0)] = 1;
}
