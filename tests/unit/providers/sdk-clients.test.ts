import { SdkClients } from '../../../adapters/providers/sdk-clients';

describe('SdkClients', () => {
  it('builds one client per key and reuses it', () => {
    const built: string[] = [];
    const clients = new SdkClients((key) => {
      built.push(key);
      return { key };
    });
    const first = clients.get('sk-one');
    expect(clients.get('sk-one')).toBe(first);
    expect(clients.get('sk-two')).not.toBe(first);
    expect(built).toEqual(['sk-one', 'sk-two']);
  });

  it('keeps at most `max` clients, dropping the least recently used', () => {
    const built: string[] = [];
    const clients = new SdkClients((key) => (built.push(key), { key }), 2);
    clients.get('a');
    clients.get('b');
    clients.get('a'); // b is now the least recently used
    clients.get('c');
    clients.get('a');
    clients.get('b');
    expect(built).toEqual(['a', 'b', 'c', 'b']);
  });
});
