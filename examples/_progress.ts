/**
 * A one-line progress bar for the training examples: the bar, the step count, the running loss and
 * samples (or tokens) per second, redrawn in place on a terminal and printed once per `end()` elsewhere.
 */

const encoder = new TextEncoder();

/** A progress bar over `total` steps, labelled `label` (`"epoch 3/10"`). */
export class Progress {
  readonly #label: string;
  readonly #total: number;
  readonly #unit: string;
  readonly #start = performance.now();
  readonly #tty = Deno.stdout.isTerminal();
  #done = 0;
  #items = 0;
  #lastDraw = 0;

  /** A bar for `total` steps; `unit` names what {@link Progress.step} counts ("samples", "tokens"). */
  constructor(label: string, total: number, unit = "samples") {
    this.#label = label;
    this.#total = total;
    this.#unit = unit;
  }

  /** One step done, over `items` samples, with the loss `loss` when known. */
  step(items: number, loss?: number): void {
    this.#done++;
    this.#items += items;
    const now = performance.now();
    if (this.#tty && (now - this.#lastDraw > 100 || this.#done === this.#total)) {
      this.#lastDraw = now;
      Deno.stdout.writeSync(encoder.encode(`\r${this.#line(loss)}`));
    }
  }

  /** Ends the bar with `extra` appended (the epoch's accuracy); returns the items per second. */
  end(loss?: number, extra = ""): number {
    const line = `${this.#line(loss)}${extra === "" ? "" : `  ${extra}`}`;
    Deno.stdout.writeSync(encoder.encode(this.#tty ? `\r${line}\x1b[K\n` : `${line}\n`));
    return this.rate();
  }

  /** Items per second since the bar began. */
  rate(): number {
    return this.#items / ((performance.now() - this.#start) / 1000);
  }

  #line(loss?: number): string {
    const width = 24, filled = Math.round((width * this.#done) / this.#total);
    const bar = "█".repeat(filled) + "·".repeat(width - filled);
    const lossText = loss === undefined ? "" : `  loss ${loss.toFixed(4)}`;
    const rate = Math.round(this.rate()).toLocaleString("en-US");
    return `${this.#label} ${bar} ${this.#done}/${this.#total}${lossText}  ${rate} ${this.#unit}/s`;
  }
}
