import { pollUntil, runCommand } from '@platform/testing';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stack } from './stack.config';

/** The fields of the API's JSON answers that a reader of the walkthrough copies or checks. */
interface ReaderAnswer {
  ok?: boolean;
  job?: string;
  status?: string;
  error?: string;
  task?: { id: string; job: string; machine_translation: string } | null;
}

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The commands of the README's shell block that contains `marker`: continuation lines joined,
 * comments and blank lines left out, in order.
 */
function readmeCommands(marker: string): string[] {
  const blocks = [...readFileSync(`${root}README.md`, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
  const block = blocks.find((text) => text.includes(marker));
  if (!block) throw new Error(`no shell block of the README contains ${marker}`);
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));
}

/**
 * Runs one README command with bash as a reader would, against the stack under test: `$API` is its
 * translation API, the admin CLI is the stack's, `<id>` and `<job>` are the values a reader
 * copies from earlier answers. `NAME=$(...)` lines set NAME for the commands after them.
 */
async function runAsReader(command: string, vars: Record<string, string>): Promise<{ assigned?: string; output?: ReaderAnswer }> {
  const line = command.replaceAll('npm run -s admin --', stack.translateAdmin).replaceAll('<id>', vars.id ?? '<id>').replaceAll('<job>', vars.job ?? '<job>');
  const assignment = /^([A-Z]+)=\$\((.*)\)$/.exec(line);
  const run = await runCommand('/bin/bash', ['-c', assignment ? assignment[2] : line], { cwd: root, env: { ...process.env, ...vars, API: `${stack.translateUrl}/api/v1` } });
  expect(run.code, `${line}\n${run.stderr}`).toBe(0);
  if (assignment) {
    vars[assignment[1]] = run.stdout.trim();
    return { assigned: assignment[1] };
  }
  return { output: JSON.parse(run.stdout) as ReaderAnswer };
}

describe("README: the review tier's walkthrough, command for command", () => {
  it('gets a live job to a reviewer, takes the first answer, refuses the second, and completes the job', async () => {
    const commands = readmeCommands('"verdict":"approve"');
    const vars: Record<string, string> = {};
    const next = (pattern: RegExp) => {
      const command = commands.shift();
      expect(command).toMatch(pattern);
      return command!;
    };

    await runAsReader(next(/^LIVE=/), vars);
    expect(vars.LIVE).toMatch(/^svc_live_/);
    await runAsReader(next(/^REVIEWER=/), vars);
    expect(vars.REVIEWER).toMatch(/^rvw_/);
    const submitted = (await runAsReader(next(/\/translate /), vars)).output!;
    expect(submitted).toMatchObject({ ok: true, status: 'processing' });
    vars.job = submitted.job!;

    // On a long-lived stack the account's earlier jobs may have open tasks that come first: a reader asks again.
    const claim = next(/review\/tasks\/next/);
    const claimed = await pollUntil(
      async () => (await runAsReader(claim, vars)).output!,
      (answer) => answer.task?.job === vars.job,
      { timeoutMs: stack.jobTimeoutMs, intervalMs: 250, what: `the review task of ${vars.job}` },
    );
    expect(claimed.task).toMatchObject({ job: vars.job, source_language: 'en', target: 'fr', machine_translation: expect.any(String) });
    vars.id = claimed.task!.id;

    expect((await runAsReader(next(/"verdict":"approve"/), vars)).output).toEqual({ ok: true, task: vars.id, status: 'approved' });
    // The README offers the edit instead of the approval: after one answer, it is refused.
    expect((await runAsReader(next(/"verdict":"edit"/), vars)).output).toMatchObject({ error: 'already_answered' });

    const status = next(/\/batches\/<job>/);
    const done = await pollUntil(
      async () => (await runAsReader(status, vars)).output!,
      (job) => job.status !== 'processing',
      { timeoutMs: stack.jobTimeoutMs, intervalMs: 250, what: `job ${vars.job} to finish` },
    );
    expect(done).toMatchObject({ ok: true, status: 'done', tier: 'review', reviewed_by: 'account', results: [{ index: 0, translation: claimed.task!.machine_translation }] });
    expect(commands).toEqual([]);
  });
});
