import { Argon2PasswordHasher } from '../../../adapters/crypto/argon2.password-hasher';
import { InMemoryFileStore } from '../../../adapters/files/in-memory.file-store';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryUserRepository } from '../../../adapters/persistence/in-memory/in-memory-user.repository';
import { InMemoryKnowledgeDocumentRepository } from '../../../adapters/persistence/knowledge/in-memory-knowledge-document.repository';
import { InMemoryUploadRepository } from '../../../adapters/persistence/uploads/in-memory-upload.repository';
import { DeleteApplicationUseCase } from '../../../core/applications/use-cases/delete-application.use-case';
import type { Actor } from '../../../core/shared/actor';
import { ValidationError } from '../../../core/shared/errors';
import { CreateUploadUseCase } from '../../../core/uploads/use-cases/create-upload.use-case';
import { documentsFolder, StoredFilesCleanup, uploadsFolder } from '../../../core/uploads/use-cases/stored-files-cleanup';
import { DeleteAccountUseCase } from '../../../core/users/use-cases/delete-account.use-case';

const PASSWORD = 'correct horse battery';

/** A file store whose removals fail, as a full or read-only disk would make them. */
class UndeletableFileStore extends InMemoryFileStore {
  override async delete(key: string): Promise<void> {
    throw new Error(`EACCES: permission denied, unlink '/data/uploads/${key}'`);
  }
}

async function world(files = new InMemoryFileStore()) {
  const hasher = new Argon2PasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const users = new InMemoryUserRepository();
  const applications = new InMemoryApplicationRepository();
  const uploads = new InMemoryUploadRepository();
  const documents = new InMemoryKnowledgeDocumentRepository(applications);
  const reported: Array<{ error: unknown; summary: string }> = [];
  const storedFiles = new StoredFilesCleanup({ files, uploads, documents, onError: (error, summary) => reported.push({ error, summary }) });
  const createUpload = new CreateUploadUseCase({ uploads, files });

  async function user(email: string) {
    const u = await users.create({ email, displayName: email, role: 'developer', passwordHash: await hasher.hash(PASSWORD) });
    return { userId: u.id, role: 'developer' } as Actor;
  }
  async function app(owner: Actor, name: string) {
    return applications.create({ ownerId: owner.userId, name, description: '', slug: name.toLowerCase(), allowedOrigins: [] });
  }
  /** A knowledge document's row and stored source, as the upload use case leaves them. */
  async function document(applicationId: string, name: string) {
    const storageKey = `${documentsFolder((await applications.findById(applicationId))!)}/${name}.txt`;
    await files.write(storageKey, Buffer.from(`text of ${name}`));
    await documents.create({
      applicationId, fileName: `${name}.txt`, format: 'txt', sizeBytes: 10, storageKey, chunkSize: 500, chunkOverlap: 50,
      embeddingProvider: 'local', embeddingModel: 'local-hash-384', embeddingDimension: 384,
    });
    return storageKey;
  }
  async function upload(owner: Actor, name: string) {
    const view = await createUpload.execute({ name, bytes: Buffer.from(`bytes of ${name}`) }, owner);
    return (await uploads.findById(view.id))!.storageKey;
  }
  return {
    files, users, applications, uploads, documents, reported, user, app, document, upload,
    deleteAccount: new DeleteAccountUseCase({ users, hasher, storedFiles }),
    deleteApplication: new DeleteApplicationUseCase({ applications, storedFiles }),
  };
}

describe('deleting an account or an application removes its stored files', () => {
  it("deletes the application's document sources and nothing else", async () => {
    const w = await world();
    const alice = await w.user('alice@example.com');
    const shop = await w.app(alice, 'Shop');
    const blog = await w.app(alice, 'Blog');
    const shopFiles = [await w.document(shop.id, 'refunds'), await w.document(shop.id, 'shipping')];
    const blogFile = await w.document(blog.id, 'posts');
    const uploaded = await w.upload(alice, 'notes.txt');

    await w.deleteApplication.execute(shop.id, alice);

    expect(await w.applications.findById(shop.id)).toBeNull();
    for (const key of shopFiles) expect(w.files.files.has(key)).toBe(false);
    expect([...w.files.files.keys()].sort()).toEqual([blogFile, uploaded].sort());
    expect(w.reported).toEqual([]);
  });

  it("deletes the user's uploads and every document source of the user's applications, and no one else's", async () => {
    const w = await world();
    const alice = await w.user('alice@example.com');
    const bob = await w.user('bob@example.com');
    const aliceFiles = [
      await w.upload(alice, 'notes.txt'),
      await w.upload(alice, 'readme.md'),
      await w.document((await w.app(alice, 'Shop')).id, 'refunds'),
      await w.document((await w.app(alice, 'Blog')).id, 'posts'),
    ];
    const bobFiles = [await w.upload(bob, 'bob.txt'), await w.document((await w.app(bob, 'Bobs')).id, 'faq')];

    await w.deleteAccount.execute({ password: PASSWORD }, alice);

    expect(await w.users.findById(alice.userId)).toBeNull();
    for (const key of aliceFiles) expect(w.files.files.has(key)).toBe(false);
    expect([...w.files.files.keys()].sort()).toEqual(bobFiles.sort());
  });

  it('keeps every file when the password is wrong', async () => {
    const w = await world();
    const alice = await w.user('alice@example.com');
    const key = await w.upload(alice, 'notes.txt');
    await expect(w.deleteAccount.execute({ password: 'wrong password' }, alice)).rejects.toBeInstanceOf(ValidationError);
    expect(await w.users.findById(alice.userId)).not.toBeNull();
    expect(w.files.files.has(key)).toBe(true);
  });

  it('still deletes the account and the application when files cannot be removed, and reports it without keys or paths', async () => {
    const w = await world(new UndeletableFileStore());
    const alice = await w.user('alice@example.com');
    const shop = await w.app(alice, 'Shop');
    await w.document(shop.id, 'refunds');
    await w.upload(alice, 'notes.txt');

    await expect(w.deleteApplication.execute(shop.id, alice)).resolves.toBeUndefined();
    expect(await w.applications.findById(shop.id)).toBeNull();
    await expect(w.deleteAccount.execute({ password: PASSWORD }, alice)).resolves.toBeUndefined();
    expect(await w.users.findById(alice.userId)).toBeNull();

    expect(w.reported.map((r) => r.summary)).toEqual([
      '1 of 1 stored files could not be removed; they are left behind',
      '1 of 1 stored files could not be removed; they are left behind',
    ]);
    for (const r of w.reported) expect(r.summary).not.toMatch(/knowledge\/|files\/|\/data/);
  });

  it('still deletes when the files cannot even be listed', async () => {
    const w = await world();
    const alice = await w.user('alice@example.com');
    w.uploads.storageKeysByOwner = async () => {
      throw new Error('database hiccup');
    };
    await expect(w.deleteAccount.execute({ password: PASSWORD }, alice)).resolves.toBeUndefined();
    expect(await w.users.findById(alice.userId)).toBeNull();
    expect(w.reported).toEqual([{ error: expect.any(Error), summary: 'the stored files to remove could not be listed; only their folders are removed' }]);
  });

  it('also removes a file stored while the deletion ran, whose row it never listed', async () => {
    const w = await world();
    const alice = await w.user('alice@example.com');
    const shop = await w.app(alice, 'Shop');
    const bob = await w.user('bob@example.com');
    const bobs = await w.upload(bob, 'bob.txt');
    // As if an upload and a document had been stored just after the keys were listed.
    const lateUpload = `${uploadsFolder(alice.userId)}/late.png`;
    const lateDocument = `${documentsFolder(shop)}/late.md`;
    await w.files.write(lateUpload, Buffer.from('late'));
    await w.files.write(lateDocument, Buffer.from('late'));
    w.uploads.storageKeysByOwner = async () => [];

    await w.deleteApplication.execute(shop.id, alice);
    expect(w.files.files.has(lateDocument)).toBe(false);
    expect(w.files.files.has(lateUpload)).toBe(true);
    await w.deleteAccount.execute({ password: PASSWORD }, alice);
    expect([...w.files.files.keys()]).toEqual([bobs]);
  });
});
