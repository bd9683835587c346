// cudeno: --kernel vector_add --arg n=1<<20 --arg a=rand(n) --arg b=rand(n) --arg c=zeros(n)
// c = a + b over n floats, one work-item per element.

__kernel void vector_add(__global const float *a, __global const float *b, __global float *c, uint n) {
  uint i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
