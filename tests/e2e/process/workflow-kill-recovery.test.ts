import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../../support/wait-for';
import { KillableCoreApi } from '../../support/killable-core-api';

const BASE_URL = process.env.TEST_DATABASE_URL;

// Two processes must share one database: PGlite serves one process only, so this needs PostgreSQL.
(BASE_URL ? describe : describe.skip)('a workflow run survives a SIGKILL of the core API (PostgreSQL; skipped without TEST_DATABASE_URL)', () => {
  const processes = new KillableCoreApi(BASE_URL!, 'wfkill');
  let server: Server;
  let port = 0;
  const calls: string[] = [];
  let holdFirst = true;

  beforeAll(async () => {
    await processes.open();
    // `/first` answers at once; `/second` never answers the first time (the process is killed meanwhile).
    server = createServer((req, res) => {
      calls.push(req.url!);
      if (req.url === '/second' && holdFirst) {
        holdFirst = false;
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ step: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await processes.close();
  });

  const start = () => processes.start();

  it('continues from the last completed step after a restart, not running completed steps again', async () => {
    const first = await start();
    const owner = (await first.client.post('/api/auth/register', { email: 'wfkill@example.com', password: 'kill password', displayName: 'K' })).body;
    const token = owner.access_token as string;
    const app = await first.client.post('/api/applications', { name: 'Durable' }, { token });
    const wf = await first.client.post(
      '/api/workflows',
      {
        applicationId: app.body.id,
        name: 'Three calls',
        allowedHosts: ['127.0.0.1'],
        steps: [
          { id: 'one', kind: 'http', method: 'GET', url: `http://127.0.0.1:${port}/first` },
          { id: 'two', kind: 'http', method: 'GET', url: `http://127.0.0.1:${port}/second` },
          { id: 'three', kind: 'template', text: '{{steps.one.output.body.step}} then {{steps.two.output.body.step}}' },
        ],
      },
      { token },
    );
    expect(wf.status).toBe(201);
    const started = await first.client.post(`/api/workflows/${wf.body.id}/trigger`, { input: {} }, { token });
    expect(started.status).toBe(202);
    // Step one is recorded and step two is in flight when the process dies.
    await waitFor(() => calls.includes('/second'), 20_000);
    const midway = (await first.client.get(`/api/workflows/runs/${started.body.runId}`, { token })).body;
    expect(midway.status).toBe('running');
    expect(midway.steps.map((s: { stepId: string }) => s.stepId)).toEqual(['one']);
    first.service.child.kill('SIGKILL');
    await first.service.exited;

    const second = await start();
    try {
      let run: any;
      await waitFor(async () => {
        run = (await second.client.get(`/api/workflows/runs/${started.body.runId}`, { token })).body;
        return run.status !== 'running';
      }, 60_000);
      expect([run.status, run.error]).toEqual(['completed', null]);
      expect(run.steps.map((s: { stepId: string }) => s.stepId)).toEqual(['one', 'two', 'three']);
      expect(run.output).toEqual({ text: '/first then /second' });
      // Step one ran once; step two twice (it was cut short by the kill).
      expect(calls).toEqual(['/first', '/second', '/second']);
    } finally {
      await second.service.stop('SIGKILL');
    }
  }, 150_000);
});
