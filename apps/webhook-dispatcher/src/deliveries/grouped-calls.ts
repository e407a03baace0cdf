interface Waiting<In, Out> {
  input: In;
  resolve: (output: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns many concurrent calls into few round trips: while one group is under way, the calls
 * arriving meanwhile gather, and the next group takes all of them. A busy process so makes one
 * round trip for many calls, and an idle one still makes each call at once. `run` gets the
 * inputs of a group and returns one output per input, in order; if it throws, every call of the
 * group rejects with that error.
 */
export class GroupedCalls<In, Out> {
  private waiting: Waiting<In, Out>[] = [];
  private running?: Promise<void>;

  constructor(private readonly run: (inputs: In[]) => Promise<Out[]>) {}

  call(input: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.running ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting;
      this.waiting = [];
      try {
        const outputs = await this.run(group.map((entry) => entry.input));
        group.forEach((entry, n) => entry.resolve(outputs[n]));
      } catch (error) {
        for (const entry of group) entry.reject(error);
      }
    }
    this.running = undefined;
  }
}
