// crosscheck: mismatch
// args: --reference=cp_ref --blockDim=4 --param=natoms=2 --array-len=energy=16,atoms=8 --assume=float-reassoc
// KLEE-CL's second mismatch in Parboil's cp: the kernel computes four adjacent points per
// thread, each `dx` by adding the grid's spacing to the last one's; the reference computes
// `x * spacing - ax`, for every `spacing`. Associativity does not make the two equal
// (distributivity would): a mismatch even under `--assume=float-reassoc`, as KLEE-CL
// reports it.
__global__ void cp_kern(float *energy, const float *atoms, int natoms, float spacing) {
    int x0 = 4 * threadIdx.x;
    float e0 = 0.0f, e1 = 0.0f, e2 = 0.0f, e3 = 0.0f;
    for (int a = 0; a < natoms; a++) {
        float dx = x0 * spacing - atoms[4 * a];
        float dyz2 = atoms[4 * a + 1] * atoms[4 * a + 1] + atoms[4 * a + 2] * atoms[4 * a + 2];
        float q = atoms[4 * a + 3];
        e0 += q * (dx * dx + dyz2);
        dx += spacing;
        e1 += q * (dx * dx + dyz2);
        dx += spacing;
        e2 += q * (dx * dx + dyz2);
        dx += spacing;
        e3 += q * (dx * dx + dyz2);
    }
    energy[x0] = e0;
    energy[x0 + 1] = e1;
    energy[x0 + 2] = e2;
    energy[x0 + 3] = e3;
}

void cp_ref(float *energy, const float *atoms, int natoms, float spacing) {
    for (int x = 0; x < 16; x++) {
        float e = 0.0f;
        for (int a = 0; a < natoms; a++) {
            float dx = x * spacing - atoms[4 * a];
            float dy = atoms[4 * a + 1];
            float dz = atoms[4 * a + 2];
            e += atoms[4 * a + 3] * (dx * dx + dy * dy + dz * dz);
        }
        energy[x] = e;
    }
}
