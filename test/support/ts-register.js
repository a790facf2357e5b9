/**
 * Runs TypeScript files in a plain `node` process without a build step or ts-node:
 *
 *   node -r ./test/support/ts-register.js path/to/script.ts [args...]
 *   spawn(process.execPath, ['-r', TS_REGISTER, script, ...args])      (from a test)
 *
 * It installs a `require` hook for `.ts` files that transpiles each file on load with
 * `typescript.transpileModule`, using the compiler options of the project's tsconfig.json forced to
 * CommonJS with an inline source map (add `--enable-source-maps` to get .ts positions in stack traces).
 * Files are transpiled one by one, like ts-jest with isolatedModules: there is NO type checking here
 * (`npx tsc --noEmit` does that) and const enums / namespaces merged across files are not supported.
 * Decorators and `emitDecoratorMetadata` work as in ts-jest, so Nest modules load.
 *
 * Used by crash tests (a child process that must die mid-write) and by the bench/ scripts.
 * Only files outside node_modules are handled; packages keep their own compiled JavaScript.
 *
 * With AGENT_CHAT_TS_CACHE naming a directory (jest's global setup sets it inside the run's temp
 * directory), each transpiled file is kept there under a hash of everything the output depends on
 * (the source, its path, tsconfig.json, this file and the TypeScript version), so the many service
 * processes one test run starts transpile the service once instead of each spending seconds of CPU
 * on the same ~400 files. A hit needs neither the compiler nor the tsconfig parse.
 */
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const tsconfigPath = path.resolve(__dirname, '..', '..', 'tsconfig.json');
const cacheDir = process.env.AGENT_CHAT_TS_CACHE || undefined;

/** Everything but the file itself that decides the output: a change to any of them misses the cache. */
const cacheSalt = cacheDir
  ? crypto
      .createHash('sha256')
      .update(fs.readFileSync(__filename))
      .update(fs.readFileSync(tsconfigPath))
      .update(require('typescript/package.json').version)
      .digest()
  : undefined;

let ts;
let compilerOptions;

/** The compiler and its options, loaded on the first cache miss only. */
function compiler() {
  if (ts === undefined) {
    ts = require('typescript');
    compilerOptions = loadCompilerOptions();
  }
  return ts;
}

function loadCompilerOptions() {
  const read = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  if (read.error) {
    throw new Error(
      `ts-register: cannot read ${tsconfigPath}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`,
    );
  }
  const { options } = ts.convertCompilerOptionsFromJson(
    read.config.compilerOptions ?? {},
    path.dirname(tsconfigPath),
  );
  return {
    ...options,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    sourceMap: false,
    inlineSourceMap: true,
    inlineSources: true,
    incremental: false,
    declaration: false,
    noEmit: false,
  };
}

function transpile(source, filename) {
  return compiler().transpileModule(source, { compilerOptions, fileName: filename, reportDiagnostics: false })
    .outputText;
}

/** From the cache when an earlier process transpiled the same input; written whole (rename) or not at all. */
function cachedTranspile(source, filename) {
  const key = crypto.createHash('sha256').update(cacheSalt).update(filename).update('\0').update(source);
  const file = path.join(cacheDir, `${key.digest('hex')}.js`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    const output = transpile(source, filename);
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      fs.writeFileSync(partial, output);
      fs.renameSync(partial, file);
    } catch {
      // A cache that cannot be written only costs the next process the same transpile.
    }
    return output;
  }
}

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  if (filename.includes(`${path.sep}node_modules${path.sep}`)) {
    throw new Error(`ts-register: refusing to transpile ${filename} (packages must ship JavaScript)`);
  }
  const source = fs.readFileSync(filename, 'utf8');
  module._compile(cacheDir ? cachedTranspile(source, filename) : transpile(source, filename), filename);
};
