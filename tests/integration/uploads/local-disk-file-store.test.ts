import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskFileStore } from '../../../adapters/files/local-disk.file-store';

describe('LocalDiskFileStore: removing a folder of keys', () => {
  let root: string;
  let store: LocalDiskFileStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'file-store-'));
    store = new LocalDiskFileStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes every file under the folder and nothing beside it', async () => {
    await store.write('files/owner-1/a.png', Buffer.from('a'));
    await store.write('files/owner-1/sub/b.txt', Buffer.from('b'));
    await store.write('files/owner-10/c.png', Buffer.from('c'));
    await store.deleteUnder('files/owner-1');
    await expect(store.read('files/owner-1/a.png')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(store.read('files/owner-1/sub/b.txt')).rejects.toMatchObject({ kind: 'not_found' });
    expect((await store.read('files/owner-10/c.png')).toString()).toBe('c');
    await expect(store.deleteUnder('files/owner-1')).resolves.toBeUndefined();
  });

  it('refuses a folder that is not a key of its own making', async () => {
    await store.write('files/owner-1/a.png', Buffer.from('a'));
    for (const prefix of ['', '..', '../x', 'files/../..', '/etc']) await expect(store.deleteUnder(prefix)).rejects.toThrow('Invalid storage key');
    expect((await store.read('files/owner-1/a.png')).toString()).toBe('a');
  });
});
