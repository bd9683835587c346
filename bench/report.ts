/**
 * results.json → RESULTS.md (tables per group with cudeno's ratios and targets) and two SVG bar charts of
 * cudeno's ratios against C and against the best peer: reads the results, has markdown.ts and charts.ts
 * render them (targets.ts judges the targets), formats the text as `deno fmt` would and writes the files.
 * Runs on its own too:
 *
 *   deno run -A bench/report.ts [bench/results.json] [--out DIR]
 *
 * The outputs go beside the results file unless --out says otherwise.
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchRecord, type Results, toRecord } from "./records.ts";
import { renderMarkdown } from "./markdown.ts";
import { renderCharts } from "./charts.ts";

/** Reads results.json, keeping the valid records and saying what was dropped. */
export function parseResults(text: string): { results: Results; problems: string[] } {
  const raw = JSON.parse(text) as Partial<Results> & { records?: unknown[] };
  const problems: string[] = [];
  const records: BenchRecord[] = [];
  for (const [i, value] of (raw.records ?? []).entries()) {
    const r = toRecord(value);
    if (typeof r === "string") problems.push(`record ${i} was dropped: ${r}`);
    else records.push(r);
  }
  const results: Results = {
    date: raw.date ?? "(no date)",
    gpu: raw.gpu ?? null,
    driver: raw.driver ?? null,
    versions: raw.versions ?? {},
    ...(raw.placement ? { placement: raw.placement } : {}),
    producers: raw.producers ?? [],
    records,
  };
  return { results, problems };
}

/** Text as `deno fmt` would leave it (aligned tables, indented SVG), so that committed results pass
 * `deno fmt --check`; unformatted, with a warning, if deno fmt cannot be run. */
async function formatted(text: string, ext: "md" | "svg"): Promise<string> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", `--ext=${ext}`, "-"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code === 0) return new TextDecoder().decode(stdout);
  console.error(
    `report: deno fmt failed, the .${ext} file is left unformatted: ${new TextDecoder().decode(stderr)}`,
  );
  return text;
}

/** Writes RESULTS.md and the charts into outDir; returns the paths written. */
export async function writeReport(
  resultsPath: string,
  outDir: string = dirname(resultsPath),
): Promise<string[]> {
  const { results, problems } = parseResults(await Deno.readTextFile(resultsPath));
  await Deno.mkdir(outDir, { recursive: true });
  const charts = await Promise.all(
    renderCharts(results).map(async (c) => ({ name: c.name, text: await formatted(c.svg, "svg") })),
  );
  const files = [
    { name: "RESULTS.md", text: await formatted(renderMarkdown(results, problems), "md") },
    ...charts,
  ];
  const written: string[] = [];
  for (const f of files) {
    const path = join(outDir, f.name);
    await Deno.writeTextFile(path, f.text);
    written.push(path);
  }
  return written;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string" } },
    allowPositionals: true,
  });
  const resultsPath = resolve(positionals[0] ?? fileURLToPath(new URL("results.json", import.meta.url)));
  const written = await writeReport(resultsPath, values.out ? resolve(values.out) : dirname(resultsPath));
  console.error(`report: wrote ${written.join(", ")}`);
}

if (import.meta.main) await main();
