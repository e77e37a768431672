import type Router from '@koa/router';
import type { Container } from 'inversify';
import type Koa from 'koa';
import type { Key } from './tokens';

/**
 * One area's part of an app: its bindings and its routers. An app is a list of modules, so adding an
 * area is one module file and one line in the app's container.
 */
export interface AppModule {
  name: string;
  bind(container: Container): void;
  routers?(container: Container): Router[];
  /** Middleware that must run before routing (CORS for the public API). */
  middleware?(container: Container): Koa.Middleware[];
  /** Work after the app is composed (background jobs); stopped on shutdown. */
  start?(container: Container): Promise<(() => Promise<void>) | void>;
}

/** Binds a singleton built from the container. */
export function provide<T>(container: Container, id: Key<T>, build: (get: Getter) => T): void {
  container
    .bind<T>(id)
    .toDynamicValue((ctx) => build(<U>(dep: Key<U>) => ctx.get<U>(dep) as U))
    .inSingletonScope();
}

/** Reads a dependency with the type its key carries. */
export type Getter = <U>(id: Key<U>) => U;
