import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Mailer, MailMessage } from '../../core/auth/ports/mailer.port';

/** Development mailer: each message becomes a JSON file in DATA_DIR/outbox (mode 0600: it may hold reset tokens). */
export class OutboxMailer implements Mailer {
  constructor(private readonly dir: string) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.json`);
    await writeFile(file, JSON.stringify({ ...message, sentAt: new Date().toISOString() }, null, 2), { mode: 0o600 });
  }
}
