#!/usr/bin/env node
// `npm run faults`: starts the fault suite's stack (faults/stack/controller.mjs: its own
// PostgreSQL, Redis and S3 on free ports plus the five services), runs the scenarios in
// faults/src against it one file at a time and stops it again, whatever the outcome. Exits with
// the suite's code. `--soak SECONDS` sets the soak's length (120 by default); other arguments go
// to vitest (e.g. a file filter: `npm run faults -- postgres`).
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { ROOT, StackError } from '../tools/stack/common.mjs';
import { printTail, ProcessSet, vitestBin, waitFor } from '../tools/stack/own-infra.mjs';

/** Building, migrating and starting everything; the first run after a clean checkout is the slowest. */
const STACK_TIMEOUT_MS = Number(process.env.FAULTS_STACK_TIMEOUT_MS || 240_000);
/** The controller gives each service 30 s to stop, in parallel, then stops the servers. */
const STACK_STOP_TIMEOUT_MS = 90_000;

const log = (message) => console.log(`[faults] ${message}`);

function parseArguments(args) {
  const rest = [];
  let soakSeconds = process.env.FAULTS_SOAK_SECONDS || '120';
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split('=', 2);
    if (flag !== '--soak') {
      rest.push(args[i]);
      continue;
    }
    soakSeconds = inline ?? args[++i];
    if (!(Number(soakSeconds) > 0)) throw new StackError(`--soak takes a number of seconds, not "${soakSeconds ?? ''}"`);
  }
  return { soakSeconds, vitestArgs: rest };
}

const processes = new ProcessSet();
let cleaning = null;

async function startStack(workDir, logFile) {
  log(`starting the stack (output in ${logFile})`);
  const startedAt = Date.now();
  const output = createWriteStream(logFile);
  await new Promise((resolve) => output.once('open', resolve));
  const controller = processes.start('controller', process.execPath, [path.join(ROOT, 'faults/stack/controller.mjs'), workDir], { output: 'pipe' });
  for (const stream of [controller.child.stdout, controller.child.stderr]) stream.pipe(output, { end: false });
  let ready = null;
  readline.createInterface({ input: controller.child.stdout }).on('line', (line) => {
    if (line.startsWith('{"msg":"faults stack ready"')) ready = JSON.parse(line);
  });
  await waitFor('the stack to be ready', () => ready, controller, STACK_TIMEOUT_MS);
  log(`stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${JSON.stringify(ready.urls)}`);
  return ready.control;
}

function runSuite(controlUrl, { soakSeconds, vitestArgs }) {
  const env = { ...process.env, FAULTS_CONTROL_URL: controlUrl, FAULTS_SOAK_SECONDS: soakSeconds };
  const suite = processes.start('vitest', process.execPath, [vitestBin(), 'run', '--config', 'faults/vitest.config.ts', ...vitestArgs], { env, output: 'inherit' });
  return suite.exit.then((code) => (typeof code === 'number' ? code : 1));
}

function cleanUp(workDir, keepWorkDir) {
  cleaning ??= (async () => {
    await processes.stopAll((entry) => (entry.name === 'controller' ? STACK_STOP_TIMEOUT_MS : 10_000));
    if (keepWorkDir) log(`kept ${workDir} (stack output and data)`);
    else rmSync(workDir, { recursive: true, force: true });
  })();
  return cleaning;
}

const options = (() => {
  try {
    return parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`[faults] ${error.message}`);
    process.exit(2);
  }
})();
const workDir = mkdtempSync(path.join(os.tmpdir(), 'platform-faults-'));
const logFile = path.join(workDir, 'stack.log');

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (cleaning) return;
    log(`${signal}: stopping the stack`);
    cleanUp(workDir, false).then(() => process.exit(128 + os.constants.signals[signal]));
  });
}

const startedAt = Date.now();
let code = 1;
try {
  code = await runSuite(await startStack(workDir, logFile), options);
} catch (error) {
  if (!cleaning) {
    console.error(`[faults] ${error instanceof StackError ? error.message : (error?.stack ?? error)}`);
    printTail(logFile, 60, '[faults]');
  }
}
if (!cleaning) {
  log('stopping the stack');
  await cleanUp(workDir, code !== 0);
  log(`${code === 0 ? 'passed' : 'failed'} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  process.exit(code);
}
