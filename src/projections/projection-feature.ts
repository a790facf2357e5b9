import { DynamicModule, FactoryProvider, Module, ModuleMetadata, Provider, Type } from '@nestjs/common';
import { CheckpointFiles } from './checkpoint-files';
import { Projection } from './projection';
import { ProjectionRegistry } from './projection-registry';

/** One of a feature's projections and its place in the apply order (see ProjectionEntry). */
export interface FeatureProjection {
  readonly use: Type<Projection>;
  readonly order: number;
  readonly after?: readonly string[];
}

/** What a feature registers with the projections layer: its read model. */
export interface ProjectionFeature {
  /** Modules the read model needs (another feature's read model it reads). */
  readonly imports?: ModuleMetadata['imports'];
  /** The read model's other providers (stores, caches, loaders), exported with the projections. */
  readonly providers?: Provider[];
  readonly projections: readonly FeatureProjection[];
  /** The provider (one of `providers`) that holds the files this feature's checkpoint part names. */
  readonly checkpointFiles?: Type<CheckpointFiles>;
}

/** The module class behind every `ProjectionsModule.forFeature(...)`; its metadata is all dynamic. */
@Module({})
export class ProjectionFeatureModule {}

/**
 * A feature's read model as a module: its providers and projections, exported to the feature, plus
 * one provider that registers the projections (and the checkpoint files) with the ProjectionRegistry
 * when Nest builds the graph. Keep the returned module in a constant and import that one object
 * wherever the read model is needed: Nest then builds it once.
 */
export function projectionFeature(feature: ProjectionFeature): DynamicModule {
  const providers = feature.providers ?? [];
  const classes = feature.projections.map((p) => p.use);
  const files = feature.checkpointFiles ? [feature.checkpointFiles] : [];
  const registration: FactoryProvider = {
    provide: Symbol(`projection registration: ${classes.map((c) => c.name).join(', ')}`),
    inject: [ProjectionRegistry, ...classes, ...files],
    useFactory: (registry: ProjectionRegistry, ...instances: unknown[]) => {
      feature.projections.forEach((p, i) =>
        registry.register({ projection: instances[i] as Projection, order: p.order, after: p.after ?? [] }),
      );
      if (feature.checkpointFiles) {
        registry.registerCheckpointFiles(classes[0].name, instances[classes.length] as CheckpointFiles);
      }
      return true;
    },
  };
  return {
    module: ProjectionFeatureModule,
    imports: feature.imports ?? [],
    providers: [...providers, ...classes, registration],
    exports: [...providers.map((p) => ('provide' in p ? p.provide : p)), ...classes],
  };
}
