/**
 * At most `size` tasks run at once, and together they may weigh at most `budget` (pixels: what a
 * conversion holds in memory grows with them); the others wait in arrival order. A task heavier
 * than the whole budget still runs, alone. The requests that can wait here are bounded by the
 * process's request slots, so the queue is too.
 */
export class ConversionTurns {
  private running = 0;
  private weight = 0;
  private readonly waiting: { weight: number; start: () => void }[] = [];

  constructor(
    private readonly size: number,
    private readonly budget = Number.POSITIVE_INFINITY,
  ) {}

  async run<T>(weight: number, task: () => Promise<T>): Promise<T> {
    if (this.waiting.length > 0 || !this.fits(weight)) await new Promise<void>((start) => this.waiting.push({ weight, start }));
    else this.take(weight);
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.weight -= weight;
      this.startWaiting();
    }
  }

  private fits(weight: number): boolean {
    return this.running === 0 || (this.running < this.size && this.weight + weight <= this.budget);
  }

  private take(weight: number): void {
    this.running += 1;
    this.weight += weight;
  }

  /** Strictly in arrival order: a heavy task first in line is not overtaken by lighter ones. */
  private startWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].weight)) {
      const next = this.waiting.shift()!;
      this.take(next.weight);
      next.start();
    }
  }
}
