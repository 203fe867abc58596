//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//the witness gives `n` = 4294967295 \(2\^31 or more\), where 32-bit arithmetic may wrap around
//
// A race only where `n + 1` wraps around: the report says the witness needs such a value,
// which the program may never pass.
__global__ void last(int *a, unsigned n) {
    if (n + 1u < n) {
        a[0] = threadIdx.x;
    }
}
