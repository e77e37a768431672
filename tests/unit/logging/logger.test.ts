import { createLogger } from '../../../adapters/logging/logger';

describe('the logger', () => {
  it('redacts secret fields at any of the first three levels of nesting', () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'test', { write: (line: string) => void lines.push(line) });
    logger.info(
      {
        password: 'hunter2hunter2',
        user: { apiKey: 'sk-secret-1', profile: { token: 'tok-xyz' } },
        headers: { authorization: 'Bearer abc', 'x-api-key': 'pk_live_zzz' },
        refresh_token: 'rt-123',
      },
      'event',
    );
    const out = lines.join('');
    for (const secret of ['hunter2hunter2', 'sk-secret-1', 'tok-xyz', 'Bearer abc', 'pk_live_zzz', 'rt-123']) expect(out).not.toContain(secret);
    expect(JSON.parse(out)).toMatchObject({ password: '[redacted]', user: { apiKey: '[redacted]', profile: { token: '[redacted]' } }, msg: 'event' });
  });
});
