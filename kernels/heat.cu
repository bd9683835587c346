// cudeno: --kernel heat_step --arg w=512 --arg h=512 --arg alpha=0.2
// cudeno: --arg u=rand(h,w) --arg out=zeros(h,w)
// One explicit step of the 2-D heat equation on an h×w grid: out = u + alpha · (the 5-point Laplacian
// of u), with the border held fixed. alpha up to 0.25 is stable. One thread per cell.

__global__ void heat_step(const float *u, float *out, int w, int h, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= w * h) return;
  int x = i % w, y = i / w;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[i] = u[i];
  } else {
    out[i] = u[i] + alpha * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w] - 4.0f * u[i]);
  }
}
