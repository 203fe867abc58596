// args: --local_size=16 --num_groups=1
// Access predicates outside assertions and invariants, or of something not an array.
kernel void foo(global int *p, int n) {
  int x = __write(p);
  __assert(__read(n));
}
