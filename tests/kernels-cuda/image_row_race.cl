//xfail:NOT_ALL_VERIFIED
//--local_size=[8,8] --num_groups=[4,4] --no-inline
//possible write-write race on dest

// Every work item of a row writes the row's first pixel: a write-write race on the image
// (confirmed: the interpreter stores pixels as words of the image's memory).
__kernel void rows(read_only image2d_t src, write_only image2d_t dest, sampler_t s) {
  uint4 p = read_imageui(src, s, (float2)(get_global_id(0), get_global_id(1)));
  write_imageui(dest, (int2)(0, get_global_id(1)), p + (uint4)(get_global_id(0)));
}
