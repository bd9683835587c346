// cudeno: --kernel sum --arg n=1<<20 --arg x=rand(n) --arg total=zeros(1)
// total[0] += the sum of x's n floats. Each work-group of 256 adds its 256 elements as a tree in local
// memory, then one work-item adds the group's sum to total atomically (a compare-and-swap loop, since
// OpenCL C has no atomic add for floats). Launch it with work-groups of 256 (the default) and one
// work-item per element; total must start at 0.

#define BLOCK 256

void atomic_add_float(volatile __global float *p, float value) {
  union { uint u; float f; } old, next;
  do {
    old.f = *p;
    next.f = old.f + value;
  } while (atomic_cmpxchg((volatile __global uint *)p, old.u, next.u) != old.u);
}

__kernel void sum(__global const float *x, __global float *total, int n) {
  __local float partial[BLOCK];
  int t = get_local_id(0);
  int i = get_group_id(0) * BLOCK + t;
  partial[t] = i < n ? x[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) atomic_add_float(total, partial[0]);
}
