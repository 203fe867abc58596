//pass
//--local_size=64 --num_groups=2

// Pointers stored in memory are words: copied from one struct array to another and
// stored into an array of pointers; two pointers into one array compare by offset.

struct node {
  __global int *p;
  __global int *ps[2];
  int i;
};

__kernel void k(__global int *a, __global struct node *from, __global struct node *to, struct node q) {
  int g = get_global_id(0);
  to[g].p = from[g].p;
  to[g].ps[1] = a + g;
  to[g].i = from[g].i;
  __global int *r = a + g;
  __assert(r == a + g);
  __assert(r != a + (g + 1));
  __assert(q.ps[1] == q.ps[1]);
}
