/**
 * The layering rule (STYLE.md habit 11, docs/architecture.md): imports run one way, from the features
 * to the shared infrastructure, never back. `npm run lint` runs `depcruise src` with this file, so a
 * feature → src/http internal import, an infrastructure → feature import or a cycle fails CI.
 *
 * Type-only imports count (tsPreCompilationDeps): a type is as much a dependency as a value.
 *
 * `no-circular` is checked per module. Between folders there are no cycles either (checked on
 * 2026-11-25 over the whole graph); the one-way rules below keep the ones issue 13 removed from coming
 * back: projections ↔ rooms/notes/listing/metrics (features register their read models:
 * projections-imports-no-feature), log ↔ metrics (the CommitObserver port: log-imports-no-feature),
 * log ↔ tracing (the LogInstrumentation port, same rule),
 * rooms ↔ notes (both use src/ownership, which imports neither: rooms-and-notes-stay-apart,
 * ownership-imports-no-room-or-note), docs ↔ mcp (the MCP tool catalogue is published text in
 * src/docs: docs-imports-no-mcp); events ↔ notes went with the note events' move to src/events.
 */

/** Folders that are features (or read them): infrastructure must not import these. */
const FEATURES = [
  'rooms',
  'streams',
  'notes',
  'ownership',
  'listing',
  'docs',
  'humans',
  'mcp',
  'stats',
  'metrics',
  'tracing',
  'identity',
  'projections',
  'write',
  'tools',
];
const featurePath = `^src/(${FEATURES.join('|')})/`;
const featureOutsideProjections = `^src/(${FEATURES.filter((f) => f !== 'projections').join('|')})/`;
const featureOutsideWrite = `^src/(${FEATURES.filter((f) => f !== 'write' && f !== 'projections').join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means two modules can no longer be read, tested or moved apart.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'rooms-and-notes-stay-apart',
      severity: 'error',
      comment:
        'Rooms and notes are siblings: neither imports the other. What they share is ownership ' +
        '(src/ownership: reserved namespaces, the namespace gate, the owned-room rule), which reads ' +
        'their write state through ports the composition root binds. The Nest modules follow: no cycle ' +
        'breaker module, no forwardRef.',
      from: { path: '^src/rooms/' },
      to: { path: '^src/notes/' },
    },
    {
      name: 'notes-import-no-rooms',
      severity: 'error',
      comment: 'The other direction of rooms-and-notes-stay-apart.',
      from: { path: '^src/notes/' },
      to: { path: '^src/rooms/' },
    },
    {
      name: 'ownership-imports-no-room-or-note',
      severity: 'error',
      comment:
        'src/ownership sits below rooms and notes: it declares the ports it reads (OwnerNotes, ' +
        'RoomHeads), and the features implement them; importing either feature back would restore the cycle.',
      from: { path: '^src/ownership/' },
      to: { path: '^src/(rooms|notes)/' },
    },
    {
      name: 'rooms-imports-no-streams',
      severity: 'error',
      comment:
        'src/streams reads rooms (their history, the change notifier) and writes nothing; rooms never ' +
        'know who streams them. One direction only: streams → rooms.',
      from: { path: '^src/(rooms|notes|ownership|listing)/' },
      to: { path: '^src/streams/' },
    },
    {
      name: 'docs-imports-no-mcp',
      severity: 'error',
      comment:
        'The documents describe MCP (manual, server card) from the tool catalogue in src/docs; src/mcp ' +
        'serves documents through DocumentsService. One direction only: mcp → docs.',
      from: { path: '^src/docs/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'http-imports-no-feature',
      severity: 'error',
      comment:
        'src/http is shared edge infrastructure (filter, error table, route table, hooks, body reader, ' +
        'reply helpers). Each feature owns its edge in src/<feature>/http/; what several features ' +
        'share at the edge lives in src/http and depends on nothing but common and config.',
      from: { path: '^src/http/' },
      to: { path: [featurePath, '^src/(access|storage|log|events)/', '^src/[^/]+\\.ts$'] },
    },
    {
      name: 'common-imports-only-common',
      severity: 'error',
      comment:
        'src/common is the bottom layer (clock, DomainError, names, sweep, py-compat): everything may ' +
        'import it, it imports nothing else from src. nest-logger.ts takes its level as an argument ' +
        'instead of reading src/config, so the rule holds without exceptions.',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: '^src/common/' },
    },
    {
      name: 'log-imports-no-feature',
      severity: 'error',
      comment:
        'The EventLog and its backends know records, not what they mean: no feature, no projection, ' +
        'no edge. (src/log may use common, config and storage.) Its timings leave through the ' +
        'CommitObserver port (src/log/file/commit-observer.ts), which the metrics module fills.',
      from: { path: '^src/log/' },
      to: { path: [featurePath, '^src/(http|access)/'] },
    },
    {
      name: 'projections-imports-no-feature',
      severity: 'error',
      comment:
        'src/projections runs read models it does not know: features register their projections and ' +
        'the files a checkpoint covers (ProjectionsModule.forFeature, the CheckpointFiles port), and ' +
        'checkpoint timings leave through the CheckpointObserver port the metrics module fills.',
      from: { path: '^src/projections/' },
      to: { path: [featureOutsideProjections, '^src/(http|access)/'] },
    },
    {
      name: 'runtime-imports-only-config',
      severity: 'error',
      comment:
        'src/runtime watches the process itself (the event-loop stall detector): it reads its knob ' +
        'from src/config and nothing else, so every layer that reports on the process may import it.',
      from: { path: '^src/runtime/' },
      to: { path: '^src/', pathNot: '^src/(runtime|config|common)/' },
    },
    {
      name: 'write-imports-no-feature',
      severity: 'error',
      comment:
        'src/write holds the write coordinators every feature uses (EventWriter, PendingOverlay, ' +
        'ConflictRetry): it sits on the log and the projection runner and knows no feature. ' +
        'src/projections never imports it (projections-imports-no-feature lists write among the features).',
      from: { path: '^src/write/' },
      to: { path: [featureOutsideWrite, '^src/(http|access)/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
