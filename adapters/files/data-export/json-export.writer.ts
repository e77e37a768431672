import {
  EXPORT_DOCUMENT_FORMAT,
  EXPORT_DOCUMENT_VERSION,
  type ExportContent,
  type ExportedConversation,
} from '../../../core/data-export/domain/data-export';
import { StreamOutput } from './stream-output';

const json = (value: unknown): string => JSON.stringify(value);

/** Writes each element of an async iterable as it comes, separated by commas, inside brackets. */
async function writeArray<T>(out: StreamOutput, items: AsyncIterable<T>, writeItem: (item: T) => Promise<void>): Promise<void> {
  await out.write('[');
  let first = true;
  for await (const item of items) {
    if (!first) await out.write(',');
    first = false;
    await writeItem(item);
  }
  await out.write(']');
}

async function writeConversation(out: StreamOutput, c: ExportedConversation, withApplication: boolean): Promise<void> {
  const head = {
    clientId: c.clientId,
    ...(withApplication ? { applicationClientId: c.applicationClientId } : {}),
    title: c.title,
    status: c.status,
    source: c.source,
    configVersionClientId: c.configVersionClientId,
    createdAt: c.createdAt,
  };
  await out.write(`${json(head).slice(0, -1)},"messages":`);
  await writeArray(out, c.messages, (m) => out.write(`\n${json(m)}`));
  await out.write('}');
}

/**
 * The export as one JSON document, written as it is read: applications (with their model configs,
 * prompt templates and conversations) in the shape `POST /api/data-import` takes, then analytics.
 */
export async function writeJsonExport(path: string, content: ExportContent): Promise<number> {
  const out = new StreamOutput(path);
  try {
    await out.write(`{"format":${json(EXPORT_DOCUMENT_FORMAT)},"version":${EXPORT_DOCUMENT_VERSION},"exportedAt":${json(content.exportedAt)},"resources":${json(content.resources)}`);
    if (content.applications) {
      await out.write(',"applications":');
      await writeArray(out, content.applications, async (app) => {
        const { conversations, ...rest } = app;
        await out.write(`\n${json(rest).slice(0, -1)}`);
        if (conversations) {
          await out.write(',"conversations":');
          await writeArray(out, conversations, (c) => writeConversation(out, c, false));
        }
        await out.write('}');
      });
    }
    if (content.conversations) {
      await out.write(',"conversations":');
      await writeArray(out, content.conversations, (c) => writeConversation(out, c, true));
    }
    if (content.analytics) {
      await out.write(',"analytics":{"conversations":');
      await writeArray(out, content.analytics.conversations, (s) => out.write(`\n${json(s)}`));
      await out.write(',"days":');
      await writeArray(out, content.analytics.days, (s) => out.write(`\n${json(s)}`));
      await out.write('}');
    }
    await out.write('}\n');
    return await out.close();
  } catch (error) {
    out.destroy();
    throw error;
  }
}
