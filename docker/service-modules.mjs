#!/usr/bin/env node
// `node docker/service-modules.mjs <out-dir> <bundle.js>...`: lays out in <out-dir>/node_modules
// the installed npm packages the given bundles need and nothing else, so that each image carries
// only its own service's packages instead of every production dependency of the workspace.
//
// A bundle needs the packages it imports (esbuild keeps npm imports as written), and each of
// those needs its dependencies, optional dependencies and peers: required peers when installed
// (@nestjs/bull needs `bull`), optional ones only when the workspace itself depends on them for
// production (typeorm loads `pg`; @nestjs/swagger would load `typescript`, a development tool).
// Packages are found the way Node resolves them, from the node_modules next to the working
// directory upwards. Files are hard-linked where the file system allows it, so a layout costs
// next to no space or time.
import { builtinModules } from 'node:module';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/** The npm packages a bundle loads: its import statements and dynamic imports. */
export function importedPackages(bundle) {
  const specifiers = [...bundle.matchAll(/^import\s(?:[^;]*?\sfrom\s)?"([^"]+)";?$/gm), ...bundle.matchAll(/\bimport\("([^"]+)"\)/g)].map((match) => match[1]);
  const packages = specifiers
    .filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier) && !specifier.startsWith('.'))
    .map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
  return [...new Set(packages)].sort();
}

const manifestOf = (dir) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));

/** The directory of package `name` as required from the package directory `from` (Node's lookup). */
function resolvePackage(name, from, root) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return undefined;
  }
}

/**
 * Every installed package directory (absolute) the named packages need, required from `root`;
 * `production` are the workspace's production dependencies (by default those of `root`).
 * A missing dependency is an error, a missing optional dependency or peer is not (it is one for
 * another platform, or a driver the services do not use).
 */
export function packageClosure(names, root, production = manifestOf(root).dependencies ?? {}) {
  const found = new Set();
  const visit = (name, from, required) => {
    const dir = resolvePackage(name, from, root);
    if (!dir) {
      if (required) throw new Error(`${name} (needed from ${path.relative(root, from) || '.'}) is not installed`);
      return;
    }
    if (found.has(dir)) return;
    found.add(dir);
    const manifest = manifestOf(dir);
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir, !(dependency in (manifest.optionalDependencies ?? {})));
    for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) visit(dependency, dir, false);
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) {
      if (!manifest.peerDependenciesMeta?.[peer]?.optional || peer in production) visit(peer, dir, false);
    }
  };
  for (const name of names) visit(name, root, true);
  return [...found].sort();
}

/** Copies a package's own files (not its nested node_modules: those are packages of their own). */
function linkTree(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') linkTree(source, target);
    } else if (!existsSync(target)) {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

/** Lays out the packages `names` need, found from `root`, under `outDir`/node_modules; returns their paths. */
export function layOutPackages(outDir, names, root = process.cwd()) {
  const from = path.resolve(root);
  const dirs = packageClosure(names, from).map((dir) => path.relative(from, dir));
  for (const dir of dirs) linkTree(path.join(from, dir), path.join(outDir, dir));
  return dirs;
}

/** Lays out the packages `bundles` need, found from `root`, under `outDir`/node_modules. */
export function layOutServiceModules(outDir, bundles, root = process.cwd()) {
  return layOutPackages(outDir, [...new Set(bundles.flatMap((bundle) => importedPackages(readFileSync(bundle, 'utf8'))))], root);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [outDir, ...bundles] = process.argv.slice(2);
  if (!outDir || bundles.length === 0) {
    console.error('usage: service-modules.mjs <out-dir> <bundle.js>...');
    process.exit(2);
  }
  rmSync(path.join(outDir, 'node_modules'), { recursive: true, force: true });
  const packages = layOutServiceModules(outDir, bundles);
  console.log(`${outDir}: ${packages.length} packages`);
}
