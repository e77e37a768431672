import { Container } from 'inversify';
import type Koa from 'koa';
import type Router from '@koa/router';
import { createKoaApp } from '../../adapters/http/shared/create-koa-app';
import type { AppModule } from './app-module';
import type { Infrastructure } from './infrastructure';

export interface ComposedApp {
  name: string;
  app: Koa;
  container: Container;
  /** Every router mounted, for the API-reference check. */
  routers: Router[];
  /** Stops the modules' background work (not the shared infrastructure). */
  stop(): Promise<void>;
}

/** Binds the modules into one container, mounts their routers on the HTTP shell and starts their background work. */
export async function composeApp(name: string, infra: Infrastructure, modules: AppModule[]): Promise<ComposedApp> {
  const container = new Container();
  for (const m of modules) m.bind(container);
  const routers = modules.flatMap((m) => m.routers?.(container) ?? []);
  const app = createKoaApp({
    logger: infra.logger,
    trustProxy: infra.config.trustProxy,
    before: modules.flatMap((m) => m.middleware?.(container) ?? []),
    routers,
  });
  const stoppers: Array<() => Promise<void>> = [];
  for (const m of modules) {
    const stop = await m.start?.(container);
    if (stop) stoppers.push(stop);
  }
  return {
    name,
    app,
    container,
    routers,
    async stop() {
      for (const stop of stoppers.reverse()) await stop();
    },
  };
}
