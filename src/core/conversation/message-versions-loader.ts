import type * as MessageVersionsModule from './message-versions.js';

// The version tree is loaded on the first edit, regenerate or retry, or with a stored thread that
// has versions (a thread with one version never needs it), and kept.
let versionsModule: typeof MessageVersionsModule | undefined;
let versionsLoading: Promise<unknown> | undefined;

/** Loads the version tree (once; a failed load is asked again). Resolves when it is there. */
export function loadMessageVersions(): Promise<unknown> {
  if (versionsModule !== undefined) return Promise.resolve();
  return (versionsLoading ??= import('./message-versions.js').then(
    (module) => (versionsModule = module),
    (error: unknown) => {
      versionsLoading = undefined;
      throw error;
    },
  ));
}

/** The version tree when it is loaded. */
export const loadedVersionTree = (): typeof MessageVersionsModule | undefined => versionsModule;

/** The version tree, loaded (see {@link loadMessageVersions}). */
export function versionTree(): typeof MessageVersionsModule {
  if (versionsModule === undefined) throw new Error('The version tree is not loaded.');
  return versionsModule;
}
