//pass
//--local_size=2 --num_groups=1 --kernel-args=k,0x0000000500000007,0x100000002,-3,-5
/* GPUVerify's --kernel-args with a value per parameter: a struct of 8 bytes and a `long`
   take 64-bit values, low word first. */

struct pair { int a; int b; };

kernel void k(struct pair x, long n, int m, long neg) {
  __assert(x.a == 7 && x.b == 5);
  __assert(n == 0x100000002L);
  __assert(m == -3);
  __assert(neg == -5);
}
