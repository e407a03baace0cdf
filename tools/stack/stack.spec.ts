import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configuredEngines } from './apertium.mjs';
import { ROOT } from './common.mjs';
import { superviseService } from './services.mjs';

/** Runs `start.mjs` to its end and gives its exit code and output. */
function runStack(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'tools/stack/start.mjs'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('npm start', () => {
  it.each(['6000', '6666', '10080'])('refuses a service port fetch would refuse (%s) before starting anything', async (port) => {
    const { code, output } = await runStack(['translate-api'], { ...process.env, TRANSLATE_API_PORT: port });
    expect(code).toBe(1);
    expect(output).toContain(`TRANSLATE_API_PORT=${port}: fetch refuses to connect to this port (a "bad port" of the Fetch standard)`);
    expect(output).not.toContain('built');
  });
});

describe('superviseService', () => {
  /** Supervises a process that exits with `code` at once, until `until` starts have happened or it gives up. */
  function supervise(code: number, until: number): Promise<{ starts: number; gaveUp: boolean }> {
    return new Promise((resolve) => {
      let starts = 0;
      let done = false;
      const finish = (gaveUp: boolean) => {
        done = true;
        resolve({ starts, gaveUp });
      };
      const start = () => ({ name: 'fake', child: spawn(process.execPath, ['-e', `process.exit(${code})`], { stdio: 'ignore' }) as ChildProcess });
      superviseService(start, {
        stopping: () => done,
        onStart: () => {
          if (++starts === until) finish(false);
        },
        onGiveUp: () => finish(true),
        restartDelayMs: 10,
      });
    });
  }

  it('starts a crashing service again and gives up after five crashes within a minute', async () => {
    expect(await supervise(3, 10)).toEqual({ starts: 5, gaveUp: true });
  });

  it('starts a service that exited cleanly again without counting it as a crash', async () => {
    expect(await supervise(0, 8)).toEqual({ starts: 8, gaveUp: false });
  });
});

describe('configuredEngines', () => {
  it('reads the engines as the services do, so Apertium is installed whenever one of them is Apertium', () => {
    expect(configuredEngines({})).toEqual(['apertium']);
    expect(configuredEngines({ TRANSLATION_ENGINE: 'deepl' })).toEqual(['deepl']);
    expect(configuredEngines({ TRANSLATION_ENGINE: 'deepl', TRANSLATION_ENGINES: 'libretranslate, apertium' })).toEqual(['libretranslate', 'apertium']);
  });
});
