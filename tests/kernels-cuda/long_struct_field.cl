//pass
//--local_size=64 --num_groups=2

// A struct with a `long` field (Rodinia's streamcluster): the field is two words of the
// element, read and converted to int per thread; each thread writes its own element.
typedef struct {
  float weight;
  long assign;
  float cost;
} Point;

__kernel void k(__global Point *p, __global int *out, long x)
{
  int t = get_global_id(0);
  int assign = p[t].assign;
  p[t].assign = x + t;
  out[t] = assign + (int)(x >> 32);
}
