#!/usr/bin/env node
// `npm run faults`: starts the fault suite's stack (faults/stack/controller.mjs: its own
// PostgreSQL, Redis and S3 on free ports plus the five services), runs the scenarios in
// faults/src against it one file at a time and stops it again, whatever the outcome. Exits with
// the suite's code. `--soak SECONDS` sets the soak's length (120 by default); other arguments go
// to vitest (e.g. a file filter: `npm run faults -- postgres`).
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { ROOT, StackError } from '../tools/stack/common.mjs';
import { ProcessSet, runOnOwnStack, vitestBin, waitFor } from '../tools/stack/own-infra.mjs';

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

const options = (() => {
  try {
    return parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`[faults] ${error.message}`);
    process.exit(2);
  }
})();

await runOnOwnStack('faults', processes, {
  stopTimeoutFor: (entry) => (entry.name === 'controller' ? STACK_STOP_TIMEOUT_MS : 10_000),
  run: async (workDir, logFile) => runSuite(await startStack(workDir, logFile), options),
});
