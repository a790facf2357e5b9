import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../../support/temp-dir';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Issue 16: `npm start` rebuilt dist/ on every start after any edit, because it compared dates and tsc
 * (incremental) leaves unchanged outputs alone. The check now hashes the build's inputs. A tiny
 * project with the real script and the real tsc keeps this test fast.
 */
describe('scripts/ensure-built.js', () => {
  const dir = makeTempDir('agent-chat-ensure-built');
  const project = dir.path;
  const ensureBuilt = (): string =>
    execFileSync(process.execPath, [join(project, 'scripts', 'ensure-built.js')], {
      cwd: project,
      encoding: 'utf8',
    });
  const mainMtime = (): number => statSync(join(project, 'dist', 'main.js')).mtimeMs;

  beforeAll(() => {
    mkdirSync(join(project, 'scripts'));
    mkdirSync(join(project, 'src'));
    copyFileSync(join(ROOT, 'scripts', 'ensure-built.js'), join(project, 'scripts', 'ensure-built.js'));
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    const options = {
      target: 'ES2022',
      module: 'commonjs',
      outDir: './dist',
      incremental: true,
      rootDir: './src',
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: options }));
    writeFileSync(
      join(project, 'tsconfig.build.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { tsBuildInfoFile: './dist/.tsbuildinfo' },
        include: ['src/**/*.ts'],
      }),
    );
    writeFileSync(join(project, 'package-lock.json'), '{}');
    writeFileSync(join(project, 'src', 'main.ts'), "export const main = 'v1';\n");
    writeFileSync(join(project, 'src', 'other.ts'), 'export const other = 1;\n');
  });
  afterAll(() => dir.remove());

  it('builds a fresh tree, then leaves an unchanged (or merely touched) tree alone and rebuilds an edited one', () => {
    expect(ensureBuilt()).toMatch(/building dist/);
    const built = mainMtime();

    expect(ensureBuilt()).toBe('');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(project, 'src', 'other.ts'), later, later); // a checkout or a touch: same bytes
    expect(ensureBuilt()).toBe('');
    expect(mainMtime()).toBe(built);

    writeFileSync(join(project, 'src', 'other.ts'), 'export const other = 2;\n');
    expect(ensureBuilt()).toMatch(/building dist/);
    expect(ensureBuilt()).toBe('');
  });

  it('--stamp records a build made by tsc directly (npm run build), so the next start does not rebuild', () => {
    writeFileSync(join(project, 'src', 'main.ts'), "export const main = 'v2';\n");
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: project,
    });
    execFileSync(process.execPath, [join(project, 'scripts', 'ensure-built.js'), '--stamp'], {
      cwd: project,
    });
    expect(ensureBuilt()).toBe('');
  });
});
