//pass
//--local_size=64 --num_groups=8 --no-infer

// GPUVerify's refined atomic abstraction in a loop, with the invariant its users write:
// every byte of `slots` the work-item has written is at a value its increments of
// `counter` gave it (`__write_offset_bytes` counts bytes of the `char` array, one per
// element). Checked with the invariant alone (`--no-infer`).

__kernel void take(__global unsigned *counter, __global char *slots, unsigned capacity, unsigned n) {
    for (unsigned i = 0;
         __global_invariant(__write_implies(slots, __atomic_has_taken_value(counter, 0, __write_offset_bytes(slots)))),
         i < n; i++) {
        unsigned s = atomic_inc(counter);
        if (s < capacity)
            slots[s] = 1;
    }
}
