import { InMemoryFileStore } from '../../../adapters/files/in-memory.file-store';
import { attachmentDisposition } from '../../../adapters/http/uploads/content-disposition';
import { InMemoryUploadRepository } from '../../../adapters/persistence/uploads/in-memory-upload.repository';
import { cleanFileName } from '../../../core/uploads/domain/upload';
import { CreateUploadUseCase } from '../../../core/uploads/use-cases/create-upload.use-case';
import { DeleteUploadUseCase } from '../../../core/uploads/use-cases/delete-upload.use-case';
import { GetUploadUseCase } from '../../../core/uploads/use-cases/get-upload.use-case';
import { ListUploadsUseCase } from '../../../core/uploads/use-cases/list-uploads.use-case';
import { ReadUploadContentUseCase } from '../../../core/uploads/use-cases/read-upload-content.use-case';
import { NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../../../core/shared/errors';

const alice = { userId: 'alice', role: 'developer' as const };
const bob = { userId: 'bob', role: 'developer' as const };

function uploadsWorld() {
  const deps = { uploads: new InMemoryUploadRepository(), files: new InMemoryFileStore() };
  return {
    ...deps,
    create: new CreateUploadUseCase(deps),
    list: new ListUploadsUseCase(deps),
    get: new GetUploadUseCase(deps),
    content: new ReadUploadContentUseCase(deps),
    remove: new DeleteUploadUseCase(deps),
  };
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

describe('uploads', () => {
  it('stores the bytes under a key of the server’s making and keeps the cleaned client name for display', async () => {
    const world = uploadsWorld();
    const view = await world.create.execute({ name: 'C:\\Users\\me\\notes.md', bytes: Buffer.from('# Notes') }, alice);
    expect(view).toMatchObject({ fileName: 'notes.md', mimeType: 'text/markdown', kind: 'markdown', size: 7 });
    const [key] = [...world.files.files.keys()];
    // Under the owner's folder, so deleting the account removes it with the rest.
    expect(key).toMatch(new RegExp(`^files/${alice.userId}/[0-9a-f-]{36}\\.md$`));
    const { upload, content } = await world.content.execute(view.id, alice);
    expect(upload.storageKey).toBe(key);
    expect(await readAll(content)).toBe('# Notes');
  });

  it('stores nothing when the content is refused', async () => {
    const world = uploadsWorld();
    await expect(world.create.execute({ name: 'x.png', bytes: Buffer.from('not a png') }, alice)).rejects.toBeInstanceOf(UnsupportedMediaTypeError);
    await expect(world.create.execute(undefined, alice)).rejects.toBeInstanceOf(ValidationError);
    expect(world.files.files.size).toBe(0);
  });

  it('removes the stored file when its row cannot be written', async () => {
    const world = uploadsWorld();
    world.uploads.create = async () => {
      throw new Error('database down');
    };
    await expect(world.create.execute({ name: 'a.txt', bytes: Buffer.from('x') }, alice)).rejects.toThrow('database down');
    expect(world.files.files.size).toBe(0);
  });

  it("shows each user only their own uploads, and answers 404 for anyone else's", async () => {
    const world = uploadsWorld();
    const mine = await world.create.execute({ name: 'a.txt', bytes: Buffer.from('a') }, alice);
    expect((await world.list.execute({}, alice)).data.map((u) => u.id)).toEqual([mine.id]);
    expect((await world.list.execute({}, bob)).total).toBe(0);
    for (const attempt of [() => world.get.execute(mine.id, bob), () => world.content.execute(mine.id, bob), () => world.remove.execute(mine.id, bob)]) {
      await expect(attempt()).rejects.toBeInstanceOf(NotFoundError);
    }
    await world.remove.execute(mine.id, alice);
    expect(world.files.files.size).toBe(0);
    await expect(world.get.execute(mine.id, alice)).rejects.toBeInstanceOf(NotFoundError);
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['report\u202Etxt.exe', 'reporttxt.exe'],
    ['\u0000\u0007', 'file'],
    ['...hidden.txt', 'hidden.txt'],
    [`${'a'.repeat(300)}.txt`, `${'a'.repeat(196)}.txt`],
  ])('cleans the client name %j to %j', (raw, clean) => {
    expect(cleanFileName(raw)).toBe(clean);
  });

  it('writes Content-Disposition that cannot break out of its header', () => {
    expect(attachmentDisposition('plain.txt')).toBe(`attachment; filename="plain.txt"; filename*=UTF-8''plain.txt`);
    expect(attachmentDisposition('a"b\\c;d.txt')).toBe(`attachment; filename="a_b_c_d.txt"; filename*=UTF-8''a%22b%5Cc%3Bd.txt`);
    expect(attachmentDisposition('naïve (1).txt')).toBe(`attachment; filename="na_ve (1).txt"; filename*=UTF-8''na%C3%AFve%20%281%29.txt`);
  });
});
