/**
 * A real PostgreSQL server for one test file (or the store benchmark): the Debian `postgresql`
 * package's binaries (`.ci/run` installs it when absent), a cluster made by initdb in a folder
 * under the system temp dir, on a free port of 127.0.0.1 only (and a socket in that folder),
 * stopped and removed by `stop()`. PostgreSQL refuses to run as root: as root, the server runs as
 * the `postgres` user the package makes (else `nobody`), through runuser.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust authentication, local only). */
  connectionString: string;
  port: number;
  /** Stops the server (fast shutdown) and removes its folder. */
  stop(): Promise<void>;
}

/** The folder of initdb and pg_ctl: $POSTGRES_BIN, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBinaries(): string {
  const fromEnvironment = process.env.POSTGRES_BIN;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error(
      'No PostgreSQL server binaries under /usr/lib/postgresql/*/bin: install the Debian package ' +
        '(apt-get install -y postgresql, as .ci/run does) or set POSTGRES_BIN.',
    );
  }
  return join(root, newest, 'bin');
}

/**
 * Starts a server. `durable: false` (tests) turns fsync off: a crash may lose the cluster, which
 * a test's throwaway cluster can afford; the benchmark keeps the defaults.
 */
export async function startPostgresServer(
  options: { durable?: boolean } = {},
): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const folder = mkdtempSync(join(tmpdir(), 'ack-postgres-'));
  const data = join(folder, 'data');
  const runAs = await serverUser();
  if (runAs !== undefined) chownSync(folder, runAs.uid, runAs.gid);
  const command = async (program: string, args: string[]) => {
    const [file, fileArgs] =
      runAs === undefined
        ? [join(bin, program), args]
        : ['runuser', ['-u', runAs.name, '--', join(bin, program), ...args]];
    // The folder as working directory: the server's user may not enter the caller's.
    return run(file, fileArgs, { cwd: folder });
  };
  try {
    await command('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    let lastError: unknown;
    // A free port can be taken between the probe and the start: another one then.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const port = await freePort();
      const settings = [
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${folder} -c max_connections=200`,
        options.durable === true ? '' : '-c fsync=off -c full_page_writes=off',
      ].join(' ');
      try {
        await command('pg_ctl', [
          '-D',
          data,
          '-l',
          join(folder, 'server.log'),
          '-w',
          '-t',
          '60',
          '-o',
          settings,
          'start',
        ]);
        return {
          connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
          port,
          async stop() {
            await command('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']).catch(
              () => undefined,
            );
            rmSync(folder, { recursive: true, force: true });
          },
        };
      } catch (error) {
        lastError = error;
      }
    }
    throw new Error(`PostgreSQL did not start:\n${logOf(folder)}`, { cause: lastError });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** The user to run the server as: none (ourselves) unless we are root. */
async function serverUser(): Promise<{ name: string; uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number((await run('id', ['-u', name])).stdout.trim());
      const gid = Number((await run('id', ['-g', name])).stdout.trim());
      return { name, uid, gid };
    } catch {
      // No such user: the next one.
    }
  }
  throw new Error('Running as root, and neither the postgres nor the nobody user exists.');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (typeof address === 'object' && address !== null) resolve(address.port);
        else reject(new Error('No port'));
      });
    });
  });
}

function logOf(folder: string): string {
  try {
    return readFileSync(join(folder, 'server.log'), 'utf8').slice(-2000);
  } catch {
    return '(no server log)';
  }
}
