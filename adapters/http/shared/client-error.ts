import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { errorBody } from './error.middleware';

/** Node's parser and timeout errors, as the status a client should read. */
const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
};

const MESSAGES: Record<number, string> = {
  400: 'The request is not well-formed HTTP',
  408: 'The request took too long to arrive',
  413: 'The request is too large',
  431: 'The request headers are too large',
};

/**
 * The server's `clientError` listener: a request Node refuses before any middleware runs (headers past
 * the size limit, a malformed request line, headers or body that did not arrive in time) gets the same
 * error body as every other error, then the connection is closed. Without a listener Node answers a
 * bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const message = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || message?.headersSent) {
    socket.destroy();
    return;
  }
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400;
  const body = JSON.stringify(errorBody(status, MESSAGES[status] ?? STATUS_CODES[status] ?? 'Bad Request'));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
