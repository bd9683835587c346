// cudeno: --kernel matmul --arg M=256 --arg N=256 --arg K=256
// cudeno: --arg A=rand(M,K) --arg B=rand(K,N) --arg C=zeros(M,N)
// cudeno: --grid (N+15)>>4,(M+15)>>4 --block 16,16
// C = A B for row-major A (M×K), B (K×N) and C (M×N). Each 16×16 work-group computes one 16×16 tile
// of C, walking along K one pair of tiles at a time: both are staged in local memory, so each element
// of A and B is read from global memory once per work-group instead of 16 times. Any M, N, K works
// (the tiles are padded with zeros at the edges).

#define TILE 16

__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int M, int N, int K) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TILE + ty;
  int col = get_group_id(0) * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
