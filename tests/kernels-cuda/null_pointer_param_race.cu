//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//confirmed write-write race on extra
//extra_is_null=0
//
// An optional output, checked against `nullptr` as llm.c checks `mean != NULL`: the host
// may pass it or not, so kpl asks both; when it is passed, every thread writes its one
// element.
__global__ void k(float *out, float *extra) {
    out[threadIdx.x] = 1.0f;
    if (extra != nullptr) {
        extra[0] = threadIdx.x;
    }
}
