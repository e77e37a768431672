import { ListenError, listenFailureLine } from '../../../apps/shared/listen-error';

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
