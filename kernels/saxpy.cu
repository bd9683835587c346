// cudeno: --kernel saxpy --arg n=1<<20 --arg a=2 --arg x=rand(n) --arg y=rand(n)
// y = a*x + y over n floats, one thread per element.

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
