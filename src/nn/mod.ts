/**
 * Neural-network layers on GPU arrays, with PyTorch's names and semantics in camelCase: the functions
 * of `torch.nn.functional` (`nn.linear`, `nn.conv2d`, `nn.crossEntropy`, ...) and the modules of
 * `torch.nn` (`nn.Linear`, `nn.Conv2d`, `nn.Sequential`, a `Module` base for models of your own) with
 * PyTorch's default initialisations and state-dict names. Everything is written in array operations,
 * so it runs on CUDA and on OpenCL and differentiates with `ga.grad`; a model is differentiated by
 * {@link functionalCall}, which runs it with the parameter tree `ga.grad` hands in.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * nn.manualSeed(0);
 * const model = new nn.Sequential(new nn.Linear(4, 16), new nn.ReLU(), new nn.Linear(16, 3));
 * const x = ga.random.normal([32, 4], { seed: 1 });
 * const y = ga.asarray(Array.from({ length: 32 }, (_, i) => i % 3), "int64");
 * const step = ga.valueAndGrad((p: nn.ParameterTree) => nn.crossEntropy(nn.functionalCall(model, p, x), y));
 * const [loss, grads] = step(model.parameters());
 * console.log(Number(loss), (grads["0"] as nn.ParameterTree).weight);
 * ```
 *
 * @module
 */

export {
  gelu,
  type GeluOptions,
  relu,
  sigmoid,
  silu,
  softplus,
  type SoftplusOptions,
} from "./functional_activation.ts";
export { linear } from "./functional_linear.ts";
export { compile, type Compiled, type CompileOptions } from "../array/compile/compile.ts";
export {
  type BceWithLogitsOptions,
  binaryCrossEntropyWithLogits,
  crossEntropy,
  type CrossEntropyOptions,
  mseLoss,
  type MseLossOptions,
  nllLoss,
  type NllLossOptions,
} from "./functional_loss.ts";
export type { Reduction } from "./_check.ts";
export {
  groupNorm,
  type GroupNormOptions,
  layerNorm,
  type LayerNormOptions,
  rmsNorm,
  type RmsNormOptions,
} from "./functional_norm.ts";
export { batchNorm, type BatchNormOptions } from "./functional_batch_norm.ts";
export { dropout, type DropoutGenerator, type DropoutOptions } from "./functional_dropout.ts";
export { embedding, type EmbeddingOptions } from "./functional_embedding.ts";
export { conv1d, conv2d, type ConvOptions } from "./functional_conv.ts";
export { cudnn } from "./cudnn_conv.ts";
export { autocast, type AutocastDType } from "./autocast.ts";
export { convTranspose2d, type ConvTransposeOptions } from "./functional_conv_transpose.ts";
export {
  adaptiveAvgPool2d,
  avgPool2d,
  type AvgPool2dOptions,
  maxPool2d,
  type MaxPool2dOptions,
} from "./functional_pool.ts";
export { type AttentionOptions, scaledDotProductAttention } from "./functional_attention.ts";
export { manualSeed } from "./init.ts";
export {
  functionalCall,
  type LoadStateDictOptions,
  type LoadStateDictResult,
  Module,
  type ParameterTree,
  type StateDict,
} from "./module.ts";
export { Linear, type LinearOptions } from "./linear.ts";
export { Conv2d, type Conv2dOptions } from "./conv.ts";
export { BatchNorm2d, type BatchNorm2dOptions } from "./batch_norm.ts";
export { LayerNorm, type LayerNormLayerOptions } from "./layer_norm.ts";
export { Embedding, type EmbeddingLayerOptions } from "./embedding.ts";
export { Dropout, type DropoutLayerOptions } from "./dropout.ts";
export { type Layer, Sequential } from "./sequential.ts";
export { GELU, ReLU } from "./activation.ts";
export { AdaptiveAvgPool2d, AvgPool2d, Flatten, Identity, MaxPool2d, Sigmoid, SiLU, Tanh } from "./layers.ts";
export { loadSafetensors, SafetensorsFile, type SafetensorsInfo, saveSafetensors } from "./safetensors.ts";
