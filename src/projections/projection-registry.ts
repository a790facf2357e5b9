import { CheckpointFiles, NO_CHECKPOINT_FILES } from './checkpoint-files';
import { Projection } from './projection';

/** One projection as a feature registers it (ProjectionsModule.forFeature). */
export interface ProjectionEntry {
  readonly projection: Projection;
  /** Its place in the apply order: every event reaches the projections by ascending `order`. */
  readonly order: number;
  /** Names of projections whose state this one reads while applying: they must come before it. */
  readonly after: readonly string[];
}

/**
 * The projections the features registered, in apply order, and the files their checkpoints cover.
 * Filled while Nest builds the module graph (each feature's registration is a provider), read from
 * bootstrap on: `projections` is the one live array the runner and checkpoints iterate (PROJECTIONS).
 *
 * The order is declared, never the accident of import order: names and orders are unique, and
 * `assertOrder` (run before the runner starts) refuses a projection placed before one it reads.
 */
export class ProjectionRegistry {
  readonly projections: Projection[] = [];
  private readonly entries: ProjectionEntry[] = [];
  private files: { readonly owner: string; readonly files: CheckpointFiles } | null = null;

  register(entry: ProjectionEntry): void {
    const clash = this.entries.find(
      (e) => e.order === entry.order || e.projection.name === entry.projection.name,
    );
    if (clash) {
      throw new Error(
        `projection ${entry.projection.name} (order ${entry.order}) clashes with ${clash.projection.name} ` +
          `(order ${clash.order}): names and orders must be unique`,
      );
    }
    this.entries.push(entry);
    this.entries.sort((a, b) => a.order - b.order);
    this.projections.splice(0, this.projections.length, ...this.entries.map((e) => e.projection));
  }

  /** The files every checkpoint covers; `owner` names the feature, for the error on a second one. */
  registerCheckpointFiles(owner: string, files: CheckpointFiles): void {
    if (this.files) {
      throw new Error(
        `${owner} registers checkpoint files, but ${this.files.owner} already did: a checkpoint's file ` +
          `names carry no owner, so one feature provides them all`,
      );
    }
    this.files = { owner, files };
  }

  get checkpointFiles(): CheckpointFiles {
    return this.files?.files ?? NO_CHECKPOINT_FILES;
  }

  /** Throws unless every projection comes after the projections it declared it reads. */
  assertOrder(): void {
    for (const entry of this.entries) {
      for (const name of entry.after) {
        const before = this.entries.find((e) => e.projection.name === name);
        if (before === undefined || before.order >= entry.order) {
          throw new Error(
            `projection ${entry.projection.name} (order ${entry.order}) reads ${name}, which ` +
              (before === undefined ? 'is not registered' : `has order ${before.order}`) +
              ': it must be registered with a lower order',
          );
        }
      }
    }
  }
}
