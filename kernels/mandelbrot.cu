// cudeno: --kernel mandelbrot --arg w=768 --arg h=512 --arg max_iter=256
// cudeno: --arg x0=-2.25 --arg y0=-1 --arg step=3/w --arg img=zeros(h,w)
// cudeno: --out img=mandelbrot.png --colormap magma --log
// The Mandelbrot set on an h×w grid of points x0 + step·column, y0 + step·row: img gets the number of
// iterations of z = z² + c before |z| > 2, up to max_iter (points in the set reach max_iter).

__global__ void mandelbrot(unsigned int *img, int w, int h, float x0, float y0, float step, int max_iter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= w * h) return;
  float cx = x0 + (i % w) * step;
  float cy = y0 + (i / w) * step;
  float zx = 0.0f, zy = 0.0f;
  int k = 0;
  while (k < max_iter && zx * zx + zy * zy <= 4.0f) {
    float t = zx * zx - zy * zy + cx;
    zy = 2.0f * zx * zy + cy;
    zx = t;
    k++;
  }
  img[i] = k;
}
