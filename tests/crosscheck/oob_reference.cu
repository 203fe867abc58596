// crosscheck: defect
// args: --reference=ref --blockDim=8 --array-len=8
// The reference reads one element past the end (`i <= 8`): an out-of-bounds defect of
// the reference, found on the way and replayed in the interpreter.
__global__ void k(int *out, const int *in) {
    int i = threadIdx.x;
    out[i] = in[i] * 2;
}

void ref(int *out, const int *in) {
    for (int i = 0; i <= 8; i++)
        if (i < 8)
            out[i] = in[i] * 2;
        else
            out[0] += in[i] - in[i];
}
