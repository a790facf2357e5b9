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
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const tsconfigPath = path.resolve(__dirname, '..', '..', 'tsconfig.json');

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

const compilerOptions = loadCompilerOptions();

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  if (filename.includes(`${path.sep}node_modules${path.sep}`)) {
    throw new Error(`ts-register: refusing to transpile ${filename} (packages must ship JavaScript)`);
  }
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions,
    fileName: filename,
    reportDiagnostics: false,
  });
  module._compile(outputText, filename);
};
