// args: --local_size=4 --num_groups=1
// An OpenCL `__constant` array with an initialiser is a table of constants: a read is the
// value at its index (a choice), an index past the end fails an assertion, and no memory
// is accessed (constants never race).
__constant int primes[4] = { 2, 3, 5, 7 };
__constant int2 pairs[2] = { { 1, 2 }, { 1, 4 } };
__kernel void k(__global int *out) {
  int i = get_local_id(0);
  out[i] = primes[i] + pairs[i % 2].x + pairs[1].y;
}
