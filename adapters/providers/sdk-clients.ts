/**
 * SDK clients kept per API key: building an SDK client costs more than the request it sends (the
 * openai one builds its resources, reads its environment and sets up a logger), and a chat turn makes
 * one call. A key is the platform's or a user's own, so the map is bounded: past `max` keys the least
 * recently used client goes. The keys stay in memory as the clients themselves hold them anyway.
 */
export class SdkClients<T> {
  private readonly clients = new Map<string, T>();

  constructor(private readonly create: (apiKey: string) => T, private readonly max = 256) {}

  get(apiKey: string): T {
    let client = this.clients.get(apiKey);
    if (client !== undefined) {
      // Most recently used last: a Map iterates in insertion order.
      this.clients.delete(apiKey);
    } else {
      client = this.create(apiKey);
      if (this.clients.size >= this.max) this.clients.delete(this.clients.keys().next().value!);
    }
    this.clients.set(apiKey, client);
    return client;
  }
}
