import { onDemand } from '../base/on-demand.js';

// The version tree is loaded on the first edit, regenerate or retry, or with a stored thread that
// has versions (a thread with one version never needs it), and kept.
const versionTreeModule = onDemand(() => import('./message-versions.js'));

/** Loads the version tree (once; a failed load is asked again). Resolves when it is there. */
export const loadMessageVersions = (): Promise<unknown> => versionTreeModule();

/** The version tree when it is loaded. */
export const loadedVersionTree = versionTreeModule.loaded;

/** The version tree, loaded (see {@link loadMessageVersions}). */
export function versionTree(): NonNullable<ReturnType<typeof loadedVersionTree>> {
  const module = versionTreeModule.loaded();
  if (module === undefined) throw new Error('The version tree is not loaded.');
  return module;
}
