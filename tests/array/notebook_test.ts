/**
 * The pictures in a real notebook: `deno jupyter`'s kernel (installed into a temporary folder) runs cells
 * under Jupyter's `nbclient` (Debian's `python3-nbclient`), and each cell's output carries the MIME type
 * the notebook draws: PNG for `ga.image`, SVG for `ga.plot`, an HTML table for an array.
 */
import assert from "node:assert/strict";
import { openclProblem } from "../_backends.ts";

/** A Python with nbclient, or undefined. */
function nbclientPython(): string | undefined {
  for (const python of ["python3", "/usr/bin/python3"]) {
    try {
      const { code } = new Deno.Command(python, { args: ["-c", "import nbclient, nbformat"], stderr: "null" })
        .outputSync();
      if (code === 0) return python;
    } catch {
      // not installed
    }
  }
  return undefined;
}

const python = nbclientPython();
const problem = python === undefined
  ? "no Python with nbclient (apt: python3-nbclient)"
  : openclProblem === undefined
  ? undefined
  : "no OpenCL device";

const RUN = `
import json, sys, nbformat, nbclient
cells = json.loads(sys.argv[1])
nb = nbformat.v4.new_notebook()
nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
nbclient.NotebookClient(nb, timeout=240, iopub_timeout=120, raise_on_iopub_timeout=True, kernel_name="deno").execute()
print(json.dumps([[{"type": o.get("output_type"), "mime": sorted(o.get("data", {}).keys()),
                    "error": o.get("evalue")} for o in c.outputs] for c in nb.cells]))
`;

Deno.test({
  name: `in deno jupyter, ga.image shows a PNG, ga.plot an SVG and an array an HTML table${
    problem === undefined ? "" : ` [ignored: ${problem}]`
  }`,
  ignore: problem !== undefined,
  fn: async () => {
    const data = await Deno.makeTempDir();
    try {
      const env = { XDG_DATA_HOME: data, JUPYTER_PATH: `${data}/jupyter`, NO_COLOR: "1" };
      const install = await new Deno.Command(Deno.execPath(), { args: ["jupyter", "--install"], env })
        .output();
      assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
      const module = new URL("../../src/array/mod.ts", import.meta.url).href;
      const cells = [
        `import * as ga from "${module}";\nga.useBackend("opencl");`,
        "ga.image(ga.linspace(0, 1, 16).reshape(4, 4))",
        'ga.plot([3, 1, 2], { title: "loss" })',
        "ga.asarray([[1, 2], [3, 4]])",
      ];
      // Deno's kernel can publish a cell's result after that cell's "idle" status when the machine is
      // loaded (its server sleeps a few milliseconds to let streams flush), and nbclient then drops the
      // output: a run where a displaying cell came back empty is run again, up to three times.
      let outputs: { type: string; mime: string[]; error?: string }[][] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const run = await new Deno.Command(python!, { args: ["-c", RUN, JSON.stringify(cells)], env })
          .output();
        assert.equal(run.code, 0, new TextDecoder().decode(run.stderr).slice(-3000));
        outputs = JSON.parse(new TextDecoder().decode(run.stdout).trim().split("\n").at(-1)!);
        if (outputs.slice(1).every((cell) => cell.length > 0)) break;
      }
      for (const cell of outputs) for (const o of cell) assert.notEqual(o.type, "error", o.error);
      assert.deepEqual(outputs[1]!.map((o) => o.mime), [["image/png"]]);
      assert.deepEqual(outputs[2]!.map((o) => o.mime), [["image/svg+xml"]]);
      assert.deepEqual(outputs[3]!.map((o) => o.mime), [["text/html", "text/plain"]]);
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});
