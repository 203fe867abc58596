// args: --blockDim=8 --gridDim=1
// Lambdas kpl does not read: one capturing by value, one that returns, one used as a value.
__global__ void k(float *out) {
  float a = 1.0f;
  auto copy = [=](int i) { out[i] = a; };
  auto get = [&](int i) { return out[i]; };
  auto put = [&](int i) { out[i] = a; };
  float x = put(1);
}
