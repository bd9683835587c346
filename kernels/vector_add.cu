// cudeno: --kernel vector_add --arg n=1<<20 --arg a=rand(n) --arg b=rand(n) --arg c=zeros(n)
// c = a + b over n floats, one thread per element.

__global__ void vector_add(const float *a, const float *b, float *c, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
