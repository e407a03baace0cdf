import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Rule {
  include: boolean;
  pattern: RegExp;
}

function toRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * The build context Docker sends for `contextDir`, as its .dockerignore decides: the last pattern
 * that matches a path or one of its parent directories wins, `!` patterns bring paths back.
 * Returns whether a path (relative to the context, `/`-separated) is part of the context.
 */
export function readBuildContext(contextDir: string): (relativePath: string) => boolean {
  const rules: Rule[] = readFileSync(path.join(contextDir, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      const pattern = path.posix.normalize((include ? line.slice(1) : line).replace(/^\/+/, '')).replace(/\/$/, '');
      return { include, pattern: toRegExp(pattern) };
    });
  return (relativePath) => {
    const parts = path.posix.normalize(relativePath).replace(/\/$/, '').split('/');
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let included = true;
    for (const rule of rules) {
      if (candidates.some((candidate) => rule.pattern.test(candidate))) included = rule.include;
    }
    return included;
  };
}
