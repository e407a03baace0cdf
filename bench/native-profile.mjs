// Where a process's CPU goes by thread and library, native code included: libvips' own threads
// and the kernel's work on the process's behalf, which V8's --cpu-prof does not see. Linux perf
// samples the process on the cpu-clock software event (virtual machines often offer no hardware
// counters); a benchmark installs Debian's linux-perf for it when it runs as root.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDebianPackage } from './bench-app.mjs';

const PERF = '/usr/bin/perf';
/** Samples per second: enough for shares of a few percent over seconds of work, little overhead. */
const FREQUENCY = 499;

export class NativeProfile {
  #dir;
  #recorder;

  /** Starts sampling `pid` and its threads, or says why it cannot. */
  static async start(pid) {
    const { missing } = ensureDebianPackage('linux-perf', PERF);
    if (missing) return { skipped: missing };
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-perf-'));
    const recorder = spawn(PERF, ['record', '--quiet', '-e', 'cpu-clock', '-F', String(FREQUENCY), '-p', String(pid), '-o', path.join(dir, 'perf.data')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    recorder.stderr.on('data', (chunk) => (stderr += chunk));
    // perf fails at once (no permission, no such event) or first reads the process's mappings
    // and the kernel's symbols, which takes most of a core for a moment: the measured work
    // starts after that.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (recorder.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      return { skipped: `perf record failed: ${stderr.trim().split('\n')[0]}` };
    }
    const profile = new NativeProfile();
    profile.#dir = dir;
    profile.#recorder = recorder;
    return { profile };
  }

  /** Stops sampling; the shares of the process's CPU by thread name and library, largest first, from 0.5 % up. */
  async stop() {
    this.#recorder.kill('SIGINT');
    await once(this.#recorder, 'exit');
    try {
      const report = execFileSync(PERF, ['report', '-i', path.join(this.#dir, 'perf.data'), '--stdio', '--no-children', '--sort', 'comm,dso', '-g', 'none', '-t', '\t'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      return report
        .split('\n')
        .filter((line) => /^\s*[\d.]+%\s*\t/.test(line))
        .map((line) => {
          const [percent, thread, library] = line.trim().split('\t').map((field) => field.trim());
          return { thread, library: library.startsWith('[JIT]') ? '[JIT] (JavaScript)' : library, percent: Number.parseFloat(percent) };
        })
        .filter(({ percent }) => percent >= 0.5);
    } finally {
      rmSync(this.#dir, { recursive: true, force: true });
    }
  }
}
