// args: --blockDim=16 --gridDim=2
// Every function without `__global__`/`__device__` is host code and skipped (it need not be
// code kpl reads); host variables too, of types kpl need not know. A `const` integer at file scope is a constant.
static const int N = 4 * 4;
const unsigned int MASK = 0xffffffffu;
int host_counter = 0;
float *d_buffer;
FILE *fp;
cudaEvent_t start, stop;
std::vector<float> host_values;
void fill(FILE *f, float *x) { fprintf(f, "%d", 3); }
template <typename T> void host_template(T *p) { p[0] = 0; }
extern "C" void host_sizes(int *p) { p[0] = sizeof(struct Undefined); }
extern void host_prototype(float *);
int main(int argc, char **argv) { return 0; }

__global__ void k(int *a) {
  a[threadIdx.x % N] = MASK;
}
