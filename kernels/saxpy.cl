// cudeno: --kernel saxpy --arg n=1<<20 --arg a=2 --arg x=rand(n) --arg y=rand(n)
// y = a*x + y over n floats, one work-item per element.

__kernel void saxpy(int n, float a, __global const float *x, __global float *y) {
  int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
