import type { TestClient } from '../../../support/http-client';
import { sendForm } from '../uploads/send-form';

/** Sample documents of every accepted format, each about its own topic. */
export const DOCUMENTS = {
  refunds: { name: 'refunds.md', text: '# Refund policy\n\nCustomers may return any gadget within 30 days of purchase for a full refund. Refunds reach the original payment method within five business days.' },
  drone: { name: 'drone.txt', text: 'The Zephyr-9 drone flies for 42 minutes on one charge and reaches a range of 8 kilometres. Its camera records 4K video at 60 frames per second.' },
  support: {
    name: 'support.html',
    text: '<!doctype html><html><head><title>Support</title><script>var hidden = "scriptonlyword";</script><style>.a{color:red}</style></head><body><h1>Support hours</h1><p>Our support desk answers calls Monday to Friday, 9:00 to 17:00 CET.</p></body></html>',
  },
  catalog: { name: 'catalog.json', text: JSON.stringify({ products: [{ name: 'Nimbus-2 kettle', price: 59, warranty: '2 years' }] }) },
  prices: { name: 'prices.csv', text: 'product,price,colour\nLumen lamp,35,amber\nOrbit chair,210,graphite\n' },
  manual: { name: 'manual.xml', text: '<?xml version="1.0"?><manual><section title="Battery">Charge the glider battery for 90 minutes before the first flight.</section></manual>' },
};

export function uploadDocument(client: TestClient, token: string, fields: Record<string, string>, file: { name: string; text: string | Uint8Array }) {
  return sendForm(client.baseUrl, '/api/knowledge', { token, fields, file: { name: file.name, bytes: file.text } });
}

/** Polls a document until it leaves `processing` (or the time is up). */
export async function settled(client: TestClient, token: string, id: string, timeoutMs = 20_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/api/knowledge/${id}`, { token });
    if (res.status !== 200) throw new Error(`GET document answered ${res.status}: ${res.text}`);
    if (res.body.status !== 'processing' || Date.now() > until) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
