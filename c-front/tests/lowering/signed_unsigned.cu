// args: --blockDim=4 --gridDim=1
// Signed operations become KPL's signed built-ins; an unsigned operand makes them unsigned.
__global__ void k(int *out, int a, unsigned b) {
  int t = threadIdx.x;
  out[0] = a / 3 + a % 3 + (a >> 2);
  out[1] = b / 3 + b % 3 + (b >> 2);
  out[2] = a < 0;
  out[3] = a < b;
  out[4] = -a;
  out[5] = (unsigned)a > 5;
  out[6] = t >= 2;
}
