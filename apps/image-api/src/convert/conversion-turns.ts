/**
 * At most `size` tasks run at once; the others wait in arrival order. The requests that can
 * wait here are bounded by the process's request slots, so the queue is too.
 */
export class ConversionTurns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      // The turn passes straight to the next in line, so `running` counts it still.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
