import { ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** The pipeline died or hung; the caller may retry on a fresh one. */
export class PipelineFailure extends Error {}

interface Job {
  /** Superblank ending each segment, in order; its return proves the output is that segment's. */
  markers: string[];
  results: string[];
  resolve: (results: string[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const NUL = 0;
const STDERR_TAIL = 2000;

/**
 * One warm Apertium pipeline: every program of a mode runs as its own long-lived process in
 * null-flush mode, stdout of one piped straight into stdin of the next (the data never passes
 * through Node between stages). A request is a batch of stream-format segments, each followed
 * by a NUL; every stage flushes at a NUL and passes it on, so the n-th NUL that comes out ends
 * the n-th segment. A numbered superblank at the end of each segment checks that pairing. One
 * batch is in flight at a time: the pool hands a pipeline to one caller.
 */
export class ApertiumPipeline {
  private readonly children: ChildProcess[] = [];
  private job: Job | null = null;
  private pending: Buffer[] = [];
  private stderr = '';
  private failure: PipelineFailure | null = null;
  private sequence = 0;
  private readonly exited: Promise<void>[] = [];

  constructor(
    readonly mode: string,
    stages: string[][],
    private readonly onFailure: (pipeline: ApertiumPipeline) => void,
  ) {
    // Stable, UTF-8 behaviour regardless of the service's locale.
    const env = { ...process.env, LC_ALL: 'C.UTF-8' };
    let input: Readable | 'pipe' = 'pipe';
    for (const [command, ...args] of stages) {
      const child: ChildProcess = spawn(command, args, { stdio: [input, 'pipe', 'pipe'], env });
      this.children.push(child);
      // A program that could not start reports only 'error'.
      this.exited.push(new Promise((resolve) => child.once('exit', () => resolve()).once('error', () => resolve())));
      child.on('error', (error) => this.fail(`${command}: ${error.message}`));
      // 'close' rather than 'exit': by then the program's last words on stderr have arrived.
      child.once('close', (code, signal) => this.fail(`${command} exited (${signal ?? `code ${code}`})`));
      child.stderr!.setEncoding('utf8').on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-STDERR_TAIL)));
      // The next stage owns this pipe now; our copy of it would only keep it open after a crash.
      if (input !== 'pipe') input.destroy();
      input = child.stdout!;
    }
    this.children[0].stdin!.on('error', () => undefined);
    (input as Readable).on('data', (chunk: Buffer) => this.receive(chunk));
  }

  get alive(): boolean {
    return this.failure === null;
  }

  get pids(): number[] {
    return this.children.map((child) => child.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Translates stream-format segments; rejects with PipelineFailure when the pipeline dies or exceeds `timeoutMs`. */
  run(segments: string[], timeoutMs: number): Promise<string[]> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.job) return Promise.reject(new Error(`pipeline ${this.mode} is busy`));
    if (segments.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(`no answer within ${timeoutMs} ms`), timeoutMs);
      // The marker is also the blank the analyser needs to keep a segment's final full stop.
      const markers = segments.map(() => `[apertium-segment-${++this.sequence}]`);
      this.job = { markers, results: [], resolve, reject, timer };
      this.children[0].stdin!.write(segments.map((segment, i) => `${segment}${markers[i]}\0`).join(''));
    });
  }

  /** Stops every process of the pipeline and waits until they are gone. */
  async close(): Promise<void> {
    this.fail('closed');
    await Promise.all(this.exited);
  }

  private receive(chunk: Buffer) {
    let start = 0;
    for (let end = chunk.indexOf(NUL); end >= 0; end = chunk.indexOf(NUL, start)) {
      this.pending.push(chunk.subarray(start, end));
      const output = Buffer.concat(this.pending).toString('utf8');
      this.pending = [];
      start = end + 1;
      const job = this.job;
      // Output nobody waits for (e.g. after a timeout) belongs to no request.
      if (!job) continue;
      // Stages flush what they hold when a stage before them dies, NUL included: such output
      // lacks the marker and must not pass for a translation.
      const marker = job.markers[job.results.length];
      const at = output.lastIndexOf(marker);
      if (at < 0) return this.fail('lost the output of a segment');
      job.results.push(output.slice(0, at) + output.slice(at + marker.length));
      if (job.results.length === job.markers.length) {
        clearTimeout(job.timer);
        this.job = null;
        job.resolve(job.results);
      }
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  /** Any stage failing ruins the whole pipeline: stop all of it and fail the request in flight. */
  private fail(reason: string) {
    if (this.failure) return;
    const stderr = this.stderr.trim();
    this.failure = new PipelineFailure(`Apertium pipeline ${this.mode}: ${reason}${stderr ? `: ${stderr}` : ''}`);
    for (const child of this.children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    if (this.job) {
      clearTimeout(this.job.timer);
      this.job.reject(this.failure);
      this.job = null;
    }
    this.onFailure(this);
  }
}
