import type { PluginFetchRequest, PluginFetchResponse } from './plugin-sandbox.port';

/** `platform.fetch`: https only, to the manifest's hosts, every resolved address checked, no redirects, capped. */
export interface PluginHttp {
  fetch(request: PluginFetchRequest, allowedHosts: string[]): Promise<PluginFetchResponse>;
}
