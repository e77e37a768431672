import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ExportContent, ExportedConversation } from '../../../core/data-export/domain/data-export';
import { StreamOutput } from './stream-output';

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. A text cell starting
 * with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`, so a spreadsheet shows it as text
 * instead of running it as a formula (widget visitors write message contents). Objects are JSON.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

class CsvTable {
  private readonly out: StreamOutput;
  private readonly header: Promise<void>;
  constructor(readonly path: string, columns: string[]) {
    this.out = new StreamOutput(path);
    this.header = this.out.write(`${columns.join(',')}\r\n`);
    this.header.catch(() => undefined); // reported by the next row or close
  }
  async row(values: unknown[]): Promise<void> {
    await this.header;
    await this.out.write(`${values.map(csvField).join(',')}\r\n`);
  }
  async close(): Promise<number> {
    await this.header;
    return this.out.close();
  }
  destroy(): void {
    this.out.destroy();
  }
}

const TABLES = {
  applications: ['application_id', 'name', 'description', 'allowed_origins', 'created_at'],
  model_configs: ['application_id', 'name', 'provider', 'model_id', 'settings', 'is_default', 'control_request_count', 'control_error_count', 'control_avg_latency_ms', 'control_avg_tokens_used'],
  model_config_versions: ['version_id', 'application_id', 'config_name', 'version', 'label', 'provider', 'model_id', 'settings', 'traffic_percent', 'is_active', 'request_count', 'error_count', 'avg_latency_ms', 'avg_tokens_used', 'created_at'],
  prompt_templates: ['application_id', 'name', 'content', 'is_default'],
  conversations: ['conversation_id', 'application_id', 'title', 'status', 'source', 'config_version_id', 'created_at'],
  messages: [
    'conversation_id', 'role', 'content', 'status', 'error', 'provider', 'model', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'latency_ms', 'rating', 'sources',
    'config_version_id', 'tool_calls', 'tool_call_id', 'tool_name', 'is_error', 'created_at',
  ],
  analytics_conversations: ['conversation_id', 'application_id', 'source', 'messages', 'user_messages', 'assistant_messages', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'first_message_at', 'last_message_at'],
  analytics_days: ['day', 'application_id', 'conversations', 'messages', 'user_messages', 'assistant_messages', 'prompt_tokens', 'completion_tokens', 'total_tokens'],
} as const;
type TableName = keyof typeof TABLES;

/**
 * The export as a ZIP of CSV tables (one per kind of record, joined by their ids). The tables are
 * written side by side into a scratch directory as the records are read, then zipped by streaming
 * each file in; nothing holds more than a page of rows.
 */
export async function writeCsvZipExport(path: string, scratchDir: string, content: ExportContent): Promise<number> {
  await mkdir(scratchDir, { recursive: true });
  const tables = new Map<TableName, CsvTable>();
  const table = (name: TableName) => {
    let t = tables.get(name);
    if (!t) tables.set(name, (t = new CsvTable(join(scratchDir, `${name}.csv`), [...TABLES[name]])));
    return t;
  };
  try {
    const writeConversation = async (c: ExportedConversation) => {
      await table('conversations').row([c.clientId, c.applicationClientId, c.title, c.status, c.source, c.configVersionClientId, c.createdAt]);
      const messages = table('messages');
      for await (const m of c.messages) {
        await messages.row([
          c.clientId, m.role, m.content, m.status, m.error, m.provider, m.model, m.promptTokens, m.completionTokens, m.totalTokens, m.latencyMs, m.rating, m.sources,
          m.configVersionClientId, m.toolCalls, m.toolCallId, m.toolName, m.isError, m.createdAt,
        ]);
      }
    };
    if (content.applications) {
      table('applications');
      table('model_configs');
      table('model_config_versions');
      table('prompt_templates');
      for await (const app of content.applications) {
        await table('applications').row([app.clientId, app.name, app.description, app.allowedOrigins, app.createdAt]);
        for (const c of app.modelConfigs) {
          const k = c.controlCounters;
          await table('model_configs').row([app.clientId, c.name, c.provider, c.modelId, c.settings, c.isDefault, k.requestCount, k.errorCount, k.avgLatencyMs, k.avgTokensUsed]);
          for (const v of c.versions) {
            const n = v.counters;
            await table('model_config_versions').row([
              v.clientId, app.clientId, c.name, v.version, v.label, v.provider, v.modelId, v.settings, v.trafficPercent, v.isActive, n.requestCount, n.errorCount, n.avgLatencyMs, n.avgTokensUsed, v.createdAt,
            ]);
          }
        }
        for (const t of app.promptTemplates) await table('prompt_templates').row([app.clientId, t.name, t.content, t.isDefault]);
        if (app.conversations) {
          table('conversations');
          table('messages');
          for await (const c of app.conversations) await writeConversation(c);
        }
      }
    }
    if (content.conversations) {
      table('conversations');
      table('messages');
      for await (const c of content.conversations) await writeConversation(c);
    }
    if (content.analytics) {
      const perConversation = table('analytics_conversations');
      for await (const s of content.analytics.conversations) {
        await perConversation.row([s.conversationId, s.applicationId, s.source, s.messages, s.userMessages, s.assistantMessages, s.promptTokens, s.completionTokens, s.totalTokens, s.firstMessageAt, s.lastMessageAt]);
      }
      const perDay = table('analytics_days');
      for await (const s of content.analytics.days) {
        await perDay.row([s.day, s.applicationId, s.conversations, s.messages, s.userMessages, s.assistantMessages, s.promptTokens, s.completionTokens, s.totalTokens]);
      }
    }
    for (const t of tables.values()) await t.close();
    const zip = new ZipFile();
    for (const [name, t] of tables) zip.addFile(t.path, `${name}.csv`);
    const output = createWriteStream(path, { flags: 'wx' });
    const written = pipeline(zip.outputStream, output);
    zip.end();
    await written;
    if (!output.closed) await once(output, 'close');
    return output.bytesWritten;
  } catch (error) {
    for (const t of tables.values()) t.destroy();
    throw error;
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}
