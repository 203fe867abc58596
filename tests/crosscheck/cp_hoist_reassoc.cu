// crosscheck: equivalent
// args: --reference=cp_ref --blockDim=8 --gridDim=1 --kernel-args=cp_kern,4 --array-len=32 --assume=float-reassoc
// The same pair under `--assume=float-reassoc`: the orders of the sums no longer matter.
// sum over atoms, the reference adds left to right; float + is not associative.
__global__ void cp_kern(float *energy, const float *atoms, int natoms) {
    int x = threadIdx.x;
    float gx = 0.5f * x;
    float e = 0.0f;
    for (int a = 0; a < natoms; a++) {
        float dx = gx - atoms[4 * a];
        float dy = atoms[4 * a + 1];
        float dz = atoms[4 * a + 2];
        float dyz2 = dy * dy + dz * dz;
        e += atoms[4 * a + 3] / sqrtf(dx * dx + dyz2);
    }
    energy[x] = e;
}

void cp_ref(float *energy, const float *atoms, int natoms) {
    for (int x = 0; x < 8; x++) {
        float gx = 0.5f * x;
        float e = 0.0f;
        for (int a = 0; a < natoms; a++) {
            float dx = gx - atoms[4 * a];
            float dy = atoms[4 * a + 1];
            float dz = atoms[4 * a + 2];
            e += atoms[4 * a + 3] / sqrtf(dx * dx + dy * dy + dz * dz);
        }
        energy[x] = e;
    }
}
