// cudeno: --kernel sum --arg n=1<<20 --arg x=rand(n) --arg total=zeros(1)
// total[0] += the sum of x's n floats. Each block of 256 threads adds its 256 elements as a tree in
// shared memory, then one thread adds the block's sum to total with atomicAdd. Launch it with blocks
// of 256 (the default) and one thread per element; total must start at 0.

#define BLOCK 256

__global__ void sum(const float *x, float *total, int n) {
  __shared__ float partial[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  partial[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(total, partial[0]);
}
