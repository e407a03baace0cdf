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
  timeoutMs: number;
  timer?: NodeJS.Timeout;
}

const NUL = 0;
const STDERR_TAIL = 2000;

/**
 * One warm Apertium pipeline: every program of a mode runs as its own long-lived process in
 * null-flush mode, stdout of one piped straight into stdin of the next (the data never passes
 * through Node between stages). A request is a batch of stream-format segments, each followed
 * by a NUL; every stage flushes at a NUL and passes it on, so the n-th NUL that comes out ends
 * the n-th segment. A numbered superblank at the end of each segment checks that pairing.
 * Several batches may be in flight: they are written one after the other and come out in the
 * same order, so every stage keeps working while Node hands out one batch's results and the
 * next batch is already on its way in.
 */
export class ApertiumPipeline {
  private readonly children: ChildProcess[] = [];
  /** Batches written and not yet answered, oldest first. */
  private readonly jobs: Job[] = [];
  private pending: Buffer[] = [];
  private stderr = '';
  private failure: PipelineFailure | null = null;
  private sequence = 0;
  private readonly exited: Promise<void>[] = [];

  constructor(
    readonly mode: string,
    stages: string[][],
    env: NodeJS.ProcessEnv,
    private readonly onFailure: (pipeline: ApertiumPipeline) => void,
  ) {
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

  /** Batches in flight. */
  get load(): number {
    return this.jobs.length;
  }

  get pids(): number[] {
    return this.children.map((child) => child.pid).filter((pid): pid is number => pid !== undefined);
  }

  /**
   * Translates stream-format segments; rejects with PipelineFailure when the pipeline dies or
   * takes more than `timeoutMs` for this batch once the batches before it are answered.
   */
  run(segments: string[], timeoutMs: number): Promise<string[]> {
    if (this.failure) return Promise.reject(this.failure);
    if (segments.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      // The marker is also the blank the analyser needs to keep a segment's final full stop.
      const markers = segments.map(() => `[apertium-segment-${++this.sequence}]`);
      const job: Job = { markers, results: [], resolve, reject, timeoutMs };
      this.jobs.push(job);
      if (this.jobs.length === 1) this.startClock(job);
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
      const job = this.jobs[0];
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
        this.jobs.shift();
        if (this.jobs.length) this.startClock(this.jobs[0]);
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
    for (const job of this.jobs.splice(0)) {
      clearTimeout(job.timer);
      job.reject(this.failure);
    }
    this.onFailure(this);
  }

  /** A batch's stuck bound runs from when the pipeline gets to it, not from when it was queued. */
  private startClock(job: Job) {
    job.timer = setTimeout(() => this.fail(`no answer within ${job.timeoutMs} ms`), job.timeoutMs);
  }
}
