// args: --local_size=16 --num_groups=1
// An access predicate in ordinary code is an arbitrary value (it speaks of the verifier's
// log, which the program cannot see); one of something not an array is refused, in
// `__atomic_has_taken_value` too.
kernel void foo(global int *p, int n) {
  int x = __write(p);
  __assert(__read(n));
  __assert(__atomic_has_taken_value(n, 0, n));
}
