/** Reads an SSE response into its events (for tests). */
export async function readSseEvents(res: Response): Promise<any[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((block) => block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n'))
    .filter(Boolean)
    .map((data) => JSON.parse(data));
}

/** POSTs JSON and returns the raw fetch response (for streams). */
export function postStream(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
}
