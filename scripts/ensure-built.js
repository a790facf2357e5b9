#!/usr/bin/env node
// Builds dist/ when it is missing or was built from other inputs than the tree holds now, so
// `npm start` works on a fresh clone and never rebuilds an unchanged tree. The build's inputs (the
// sources, the tsconfig files and the lock file) are hashed by content, not compared by date: tsc is
// incremental and leaves unchanged outputs untouched, and a checkout or a touch changes dates only.
// `--stamp` records the current inputs without building (`npm run build` calls it after tsc).
// Either way dist/build-info.json then names the build: the package version and the git commit of
// the tree (`-dirty` when the build's inputs differ from that commit; null outside a git checkout),
// which the start-up line and chat_build_info show. It is rewritten on every run, because a build
// whose inputs are unchanged is the build of the commit checked out now.
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { execFileSync } = require('node:child_process');

const root = join(__dirname, '..');
const stampFile = join(root, 'dist', '.build-inputs.sha256');
const buildInfoFile = join(root, 'dist', 'build-info.json');
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else files.push(path);
  }
  return files;
}

function inputsHash() {
  const hash = createHash('sha256');
  const files = [...sourceFiles(join(root, 'src')), ...INPUT_FILES.map((name) => join(root, name))];
  for (const file of files.filter(existsSync).sort()) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function git(args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

function commit() {
  let head;
  try {
    head = git(['rev-parse', '--verify', 'HEAD']);
  } catch {
    return null; // no git, or not a checkout (a container build copies the sources alone)
  }
  // Changed or new (untracked) inputs: this build is not that commit's.
  return git(['status', '--porcelain', '--', 'src', ...INPUT_FILES]) === '' ? head : `${head}-dirty`;
}

function writeBuildInfo() {
  const pkg = join(root, 'package.json');
  const version = existsSync(pkg) ? JSON.parse(readFileSync(pkg, 'utf8')).version ?? null : null;
  writeFileSync(buildInfoFile, `${JSON.stringify({ version, commit: commit() })}\n`);
}

const current = inputsHash();
if (process.argv.includes('--stamp')) {
  writeFileSync(stampFile, `${current}\n`);
} else {
  const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  if (!existsSync(join(root, 'dist', 'main.js')) || built !== current) {
    process.stdout.write('building dist/ ...\n');
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: root,
      stdio: 'inherit',
    });
    writeFileSync(stampFile, `${current}\n`);
  }
}
writeBuildInfo();
