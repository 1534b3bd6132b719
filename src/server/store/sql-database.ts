/**
 * The one SQL layer under both backends: what the store needs of a database (PGlite or a `pg`
 * pool), so that the store's SQL is written once.
 */

/** Runs one statement with `$1`-style parameters and gives its rows. */
export interface SqlQueryable {
  query<Row extends object>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** A database: statements, transactions on one connection, and its end. */
export interface SqlDatabase extends SqlQueryable {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it rejects. */
  transaction<T>(work: (transaction: SqlQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Loads an optional peer by name. The specifier is a variable and the bundlers are told to leave
 * the import alone: an app's bundler must not try to resolve a peer the app did not install.
 */
export async function importOptionalPeer(packageName: string): Promise<unknown> {
  return (await import(
    /* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ packageName
  )) as unknown;
}

/** Whether `error` says that `packageName` itself is not installed (not one of its own imports). */
export function isMissingPackage(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    (message.includes(`'${packageName}'`) || message.includes(`"${packageName}"`))
  );
}
