/* gen77000749.kpl as emitted by `kpl emit`, reduced by hand-checked deletion to the part
   PoCL 3.1 miscompiles under its default work-group method (loopvec): threads with
   get_local_id(0) == 0 end with OUT5[me] == 0 (the store inside the loop) instead of p6
   (the last store). Plain C and POCL_WORK_GROUP_METHOD=repl/loops give p6, as `kpl run`.
   Run it with the harness of the full kernel:
     kpl emit tests/difftest/pocl-loopvec/gen77000749.kpl -o D --seed 77
     cd D && cc host.c -lOpenCL -o host && ./host in.txt out.txt PATH/TO/gen77000749_reduced.cl */
#define KPL_FN static inline
KPL_FN uint kpl_urem(uint a, uint b) { return b ? a % b : a; }
KPL_FN uint kpl_sdiv(uint a, uint b) {
  int x = (int)a, y = (int)b;
  if (y == 0) return x < 0 ? 1u : 0xFFFFFFFFu;
  if (a == 0x80000000u && b == 0xFFFFFFFFu) return a;
  return (uint)(x / y);
}
KPL_FN uint kpl_b(int c) { return c ? 1u : 0u; }
__kernel void kpl_gen77000749(uint v_p6, __global uint *init_S1, __global uint *final_S1, __global uint *a_IN2, __global uint *a_IN3, __global uint *a_OUT4, __global uint *a_OUT5) {
  __local uint a_S1[16];
  uint kpl_lin = (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
  uint kpl_grp = (uint)(get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)));
  for (uint i = kpl_lin; i < 16u; i += 16u) a_S1[i] = init_S1[kpl_grp * 16u + i];
  uint v_i22 = 0u;
  while (kpl_b(v_i22 < kpl_urem((3u - (v_i22 != 0u ? 1u : v_i22)), 4u)) != 0u) {
    v_i22 = (v_i22 + 1u);
    uint v_i23 = 0u;
    while (kpl_b(v_i23 < 2u) != 0u) {
      v_i23 = (v_i23 + 1u);
      if ((kpl_sdiv(8u, v_i23) | 5u) != 0u) {
        uint v__r6 = a_S1[(((uint)get_local_id(0) + ((uint)get_local_id(1) * (uint)get_local_size(0))) + ((uint)get_local_id(2) * ((uint)get_local_size(0) * (uint)get_local_size(1))))];
        a_OUT5[(((((uint)get_group_id(0) + ((uint)get_group_id(1) * (uint)get_num_groups(0))) + ((uint)get_group_id(2) * ((uint)get_num_groups(0) * (uint)get_num_groups(1)))) * 16u) + (((uint)get_local_id(0) + ((uint)get_local_id(1) * (uint)get_local_size(0))) + ((uint)get_local_id(2) * ((uint)get_local_size(0) * (uint)get_local_size(1)))))] = (kpl_b(v__r6 == 0u) | 0u);
      }
    }
  }
  uint v__r8 = a_IN2[kpl_urem((uint)get_group_id(0), 64u)];
  a_OUT4[(((((uint)get_group_id(0) + ((uint)get_group_id(1) * (uint)get_num_groups(0))) + ((uint)get_group_id(2) * ((uint)get_num_groups(0) * (uint)get_num_groups(1)))) * 16u) + (((uint)get_local_id(0) + ((uint)get_local_id(1) * (uint)get_local_size(0))) + ((uint)get_local_id(2) * ((uint)get_local_size(0) * (uint)get_local_size(1)))))] = kpl_b(v__r8 != 0u && (9u + v_i22) != 0u);
  a_OUT5[(((((uint)get_group_id(0) + ((uint)get_group_id(1) * (uint)get_num_groups(0))) + ((uint)get_group_id(2) * ((uint)get_num_groups(0) * (uint)get_num_groups(1)))) * 16u) + (((uint)get_local_id(0) + ((uint)get_local_id(1) * (uint)get_local_size(0))) + ((uint)get_local_id(2) * ((uint)get_local_size(0) * (uint)get_local_size(1)))))] = (((uint)get_group_id(0) ^ v_i22) != 0u ? (4129376865u != 0u ? v_p6 : v_i22) : kpl_b(v_p6 != v_i22));
  for (uint i = kpl_lin; i < 16u; i += 16u) final_S1[kpl_grp * 16u + i] = a_S1[i];
}