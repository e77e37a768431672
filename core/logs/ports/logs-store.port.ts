import type { Message } from '../../conversations/domain/conversation';
import type { LogFilter, LogRow } from '../domain/logs';

/** A stored message as the logs read it: the message with its metadata and the annotation made of it. */
export interface LogMessage extends Message {
  answeredByAnnotationId: string | null;
  annotationId: string | null;
}

/** Reads an application's conversations for its logs (docs/logs.md); SQL that stays fast on large tables. */
export interface LogsStore {
  /** A page of the application's conversations, newest activity first, with the totals of each. */
  list(applicationId: string, filter: LogFilter, offset: number, limit: number): Promise<{ items: LogRow[]; total: number }>;
  /** One conversation of the application (null when it has none by that id) with its API key's name. */
  conversation(applicationId: string, conversationId: string): Promise<LogRow | null>;
  /** The conversation's messages, oldest first. */
  messages(conversationId: string): Promise<LogMessage[]>;
}
