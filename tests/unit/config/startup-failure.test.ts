import { join } from 'node:path';
import { DataDirLockedError } from '../../../adapters/persistence/pglite/data-dir-lock';
import { processCommand } from '../../../apps/shared/process-command';
import { dataDirLockedLine, databaseFailureLine, ListenError, listenFailureLine } from '../../../apps/shared/startup-failure';

describe('listenFailureLine: a service that cannot take its port says which and how to move it', () => {
  it('names the port and the variable of each service for a busy port', () => {
    expect(listenFailureLine(new ListenError('core-api', '127.0.0.1', 3000, 'EADDRINUSE', new Error('x')))).toBe(
      'Port 3000 is already in use (core-api on 127.0.0.1:3000): stop the program using it, or set PORT to a free port.',
    );
    expect(listenFailureLine(new ListenError('ai-service', '0.0.0.0', 3001, 'EADDRINUSE', new Error('x')))).toContain('set AI_SERVICE_PORT to a free port');
    expect(listenFailureLine(new ListenError('marketplace', '::', 3002, 'EADDRINUSE', new Error('x')))).toBe(
      'Port 3002 is already in use (marketplace on [::]:3002): stop the program using it, or set MARKETPLACE_PORT to a free port.',
    );
  });

  it('explains a privileged port and an address that is not on the machine', () => {
    expect(listenFailureLine(new ListenError('core-api', '0.0.0.0', 80, 'EACCES', new Error('x')))).toBe(
      'Port 80 needs privileges this process lacks (core-api on 0.0.0.0:80): set PORT to a port above 1023.',
    );
    expect(listenFailureLine(new ListenError('core-api', '10.9.8.7', 3000, 'EADDRNOTAVAIL', new Error('x')))).toMatch(/^Address 10\.9\.8\.7 is not on this machine .*set HOST/);
  });

  it('leaves every other error alone (a bug keeps its stack)', () => {
    expect(listenFailureLine(new Error('EADDRINUSE'))).toBeUndefined();
    expect(listenFailureLine(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }))).toBeUndefined();
  });
});

describe('databaseFailureLine: a database the process cannot open is one line, without the credentials', () => {
  const url = 'postgres://platform:s3cret-pass@db.internal:5433/platform';
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('names where it tried and why, never the user or password of the URL', () => {
    const line = databaseFailureLine(withCode('connect ECONNREFUSED 10.0.0.9:5433', 'ECONNREFUSED'), url)!;
    expect(line).toBe(
      'Cannot open the database of DATABASE_URL (db.internal:5433/platform): connect ECONNREFUSED 10.0.0.9:5433. Check DATABASE_URL and that PostgreSQL is running.',
    );
    expect(line).not.toContain('s3cret-pass');
    expect(databaseFailureLine(withCode('password authentication failed for user "platform"', '28P01'), url)).toContain('password authentication failed');
    expect(databaseFailureLine(withCode('database "platform" does not exist', '3D000'), 'postgres://localhost/platform')).toContain('(localhost:5432/platform)');
  });

  it('reads the code of an AggregateError, which has no message of its own', () => {
    const error = Object.assign(new AggregateError([new Error('a'), new Error('b')], ''), { code: 'ECONNREFUSED' });
    expect(databaseFailureLine(error, url)).toContain('(db.internal:5433/platform): ECONNREFUSED.');
  });

  it('leaves other errors, and the embedded database, to their stack', () => {
    expect(databaseFailureLine(withCode('relation "x" does not exist', '42P01'), url)).toBeUndefined();
    expect(databaseFailureLine(new TypeError('bug'), url)).toBeUndefined();
    expect(databaseFailureLine(withCode('connect ECONNREFUSED', 'ECONNREFUSED'), undefined)).toBeUndefined();
  });
});

describe('dataDirLockedLine: an embedded database another process holds', () => {
  it('names the holder, its host when it is another machine, and what to do', () => {
    const holder = { pid: 4242, command: 'npm start', hostname: 'elsewhere', since: '2026-01-02T03:04:05.678Z' };
    expect(dataDirLockedLine(new DataDirLockedError('/srv/data/pglite', holder))).toBe(
      'The embedded database in /srv/data/pglite is in use by process 4242 on host elsewhere (npm start, since 03:04:05 UTC): ' +
        'stop it first (Ctrl-C where it runs, or kill 4242), or set DATA_DIR to another folder (nothing was changed).',
    );
    expect(dataDirLockedLine(new DataDirLockedError('/srv/data/pglite', null))).toBe(
      'The embedded database in /srv/data/pglite is in use by another process: stop it first, or set DATA_DIR to another folder (nothing was changed).',
    );
    expect(dataDirLockedLine(new Error('other'))).toBeUndefined();
  });

  it('names a process by the npm script that runs its entry point', () => {
    const root = join(__dirname, '../../..');
    expect(processCommand(join(root, 'apps/all/main.ts'))).toBe('npm start');
    expect(processCommand(join(root, 'apps/cli/migrate.main.ts'))).toBe('npm run migrate');
    expect(processCommand(join(root, 'apps/cli/marketplace-seed.main.ts'))).toBe('npm run marketplace:seed');
    expect(processCommand(join(root, 'dist/apps/all/main.js'))).toBe('node dist/apps/all/main.js');
  });
});
