/**
 * Reads docker/Dockerfile the way BuildKit does, as far as the tests need: stages, their
 * instructions with flags, and what a target inherits from the stages it is built on.
 */
export interface Instruction {
  keyword: string;
  /** Leading `--name=value` options, e.g. `from` of a COPY or `start-period` of a HEALTHCHECK. */
  flags: Record<string, string>;
  /** Everything after the flags, continuation lines joined. */
  args: string;
}

export interface Stage {
  name: string;
  /** An image reference, `scratch`, or the name of an earlier stage. */
  base: string;
  /** Options of its FROM line, such as `platform`. */
  flags: Record<string, string>;
  instructions: Instruction[];
}

export interface Dockerfile {
  stages: Stage[];
  stage(name: string): Stage;
  /** The stages `target` is built on, the first one from an image, `target` last. */
  chain(target: string): Stage[];
  /** Variables the image of `target` sets, inherited ones included. */
  env(target: string): Record<string, string>;
  /** The last value of a single-valued instruction (USER, WORKDIR, ENTRYPOINT, CMD, HEALTHCHECK) along the chain. */
  last(target: string, keyword: string): Instruction | undefined;
  all(target: string, keyword: string): Instruction[];
}

function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // Comments (parser directives included) and blank lines, also inside a continued instruction.
    if (line === '' || line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    lines.push(current + line);
    current = '';
  }
  if (current) throw new Error(`the Dockerfile ends inside a continued line: ${current}`);
  return lines;
}

function parseInstruction(line: string): Instruction {
  const [keyword] = line.split(/\s/, 1);
  let rest = line.slice(keyword.length).trim();
  const flags: Record<string, string> = {};
  for (let flag = /^--([a-z-]+)=(\S+)\s*/.exec(rest); flag; flag = /^--([a-z-]+)=(\S+)\s*/.exec(rest)) {
    flags[flag[1]] = flag[2];
    rest = rest.slice(flag[0].length);
  }
  return { keyword: keyword.toUpperCase(), flags, args: rest };
}

/** `${NAME}` of the ARGs declared before the first FROM, which only FROM lines may use. */
function substituteGlobalArgs(value: string, args: Record<string, string>): string {
  return value.replace(/\$\{(\w+)\}/g, (_, name: string) => {
    if (!(name in args)) throw new Error(`FROM uses \${${name}}, which no ARG before the first FROM declares`);
    return args[name];
  });
}

/** The JSON (exec) form of ENTRYPOINT, CMD or HEALTHCHECK CMD; the shell form is not used here. */
export function execForm(instruction: Instruction, prefix = ''): string[] {
  const json = instruction.args.slice(prefix.length).trim();
  if (!instruction.args.startsWith(prefix) || !json.startsWith('[')) throw new Error(`${instruction.keyword} ${instruction.args} is not in exec form`);
  return JSON.parse(json) as string[];
}

/** `KEY=value` pairs of an ENV instruction (values here contain no spaces or quotes). */
function envPairs(instruction: Instruction): [string, string][] {
  return instruction.args.split(/\s+/).map((pair) => {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$/.exec(pair);
    if (!match) throw new Error(`ENV ${instruction.args}: expected KEY=value pairs`);
    return [match[1], match[2]];
  });
}

export function parseDockerfile(text: string): Dockerfile {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of logicalLines(text).map(parseInstruction)) {
    if (instruction.keyword === 'FROM') {
      const match = /^(\S+)\s+AS\s+(\S+)$/i.exec(substituteGlobalArgs(instruction.args, globalArgs));
      if (!match) throw new Error(`FROM ${instruction.args}: every stage needs a name`);
      stages.push({ base: match[1], name: match[2], flags: instruction.flags, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`${instruction.keyword} before the first FROM`);
      const [name, ...value] = instruction.args.split('=');
      globalArgs[name] = value.join('=');
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }

  const stage = (name: string) => {
    const found = stages.find((s) => s.name === name);
    if (!found) throw new Error(`no stage named ${name}`);
    return found;
  };
  const chain = (target: string): Stage[] => {
    const own = stage(target);
    return stages.some((s) => s.name === own.base) ? [...chain(own.base), own] : [own];
  };
  const all = (target: string, keyword: string) => chain(target).flatMap((s) => s.instructions.filter((i) => i.keyword === keyword));
  return {
    stages,
    stage,
    chain,
    all,
    last: (target, keyword) => all(target, keyword).at(-1),
    env: (target) => Object.fromEntries(all(target, 'ENV').flatMap(envPairs)),
  };
}
