/**
 * What the CUDA device is: the figures PyCUDA's `dump_properties.py` prints.
 *
 *   deno run --allow-ffi --allow-env examples/device_info.ts
 */
import * as cuda from "../src/cuda/mod.ts";

const why = cuda.unavailableReason();
if (why !== undefined) {
  console.log(`No CUDA device: ${why.split("\n")[0]}`);
  Deno.exit(0);
}
const [major, minor] = cuda.driverVersion();
console.log(`CUDA driver ${major}.${minor}, ${cuda.Device.count()} device(s)`);
for (let i = 0; i < cuda.Device.count(); i++) {
  const dev = new cuda.Device(i);
  const [ccMajor, ccMinor] = dev.computeCapability;
  console.log(
    `${dev}: compute capability ${ccMajor}.${ccMinor}, ${
      (Number(dev.totalMemory) / 2 ** 30).toFixed(1)
    } GiB, ${dev.pciBusId}`,
  );
  for (const [name, value] of Object.entries(dev.attributes)) console.log(`  ${name.padEnd(36)} ${value}`);
}
