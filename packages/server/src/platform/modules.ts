import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Database, DatabaseHandle } from '../db/client';
import type { CaptchaVerifier } from './captcha';
import type { Clock } from './clock';
import type { DataProtection } from './data-protection';
import type { Mailer } from './mail';
import type { RateLimiter } from './rate-limit';

/** The app (or its /v3 scope) a module installs its hooks, jobs and routes on. */
export type Http = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

/** What app.ts makes before any module: every module may use it. */
export interface Platform {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  captcha: CaptchaVerifier;
  secrets: DataProtection;
  log: FastifyBaseLogger;
}

/**
 * A need met by a module listed later: the one way the list breaks a cycle, said where it is
 * made and where it is bound. Every late need must be bound once all modules are made (the app
 * refuses to start otherwise), so nothing calls it before it exists.
 */
export interface Late<T> {
  readonly name: string;
  bind(value: T): void;
  /** The bound value; throws before it is bound. */
  get(): T;
}

export interface ModuleHost {
  late<T>(name: string): Late<T>;
  /** Work to finish when the app closes. */
  onClose(close: () => Promise<void>): void;
}

/**
 * A capability module as app.ts lists it. `create` is given what the modules listed before it
 * made (`needs`, keyed by module name; `platform` first); the other steps run once every module
 * is made, in list order: `guard` (request hooks on the whole app, before any route), `jobs`,
 * `rootRoutes` (outside /v3) and `routes` (under /v3). Properties rather than methods, so that
 * TypeScript checks `needs` strictly: a module asking for one listed after it does not compile.
 */
export interface AppModule<Name extends string, Needs, Made> {
  readonly name: Name;
  readonly create: (needs: Needs, host: ModuleHost) => Made | Promise<Made>;
  readonly guard?: (app: Http, made: Made, needs: Needs) => void;
  readonly jobs?: (app: Http, made: Made, needs: Needs) => void;
  readonly rootRoutes?: (app: Http, made: Made, needs: Needs) => Promise<void>;
  readonly routes?: (api: Http, made: Made, needs: Needs) => Promise<void>;
}

export function defineModule<Name extends string, Needs, Made>(module: AppModule<Name, Needs, Made>): AppModule<Name, Needs, Made> {
  return module;
}

type Step = 'guard' | 'jobs' | 'rootRoutes' | 'routes';
type AnyModule = AppModule<string, never, unknown>;

/** The modules made, in list order: each step runs every module's part of it. */
export interface MadeModules<Services> {
  readonly services: Services;
  run(step: Step, app: Http): Promise<void>;
}

/**
 * The ordered list of modules. `add` accepts a module only if everything its `create` needs is
 * already in the list; `create` makes them one after the other and checks that every late need
 * was bound.
 */
export class ModuleList<Services extends object> {
  private constructor(
    private readonly base: Services,
    private readonly modules: readonly AnyModule[],
  ) {}

  static of<Base extends object>(base: Base): ModuleList<Base> {
    return new ModuleList(base, []);
  }

  add<Name extends string, Made>(
    module: AppModule<Name extends keyof Services ? never : Name, Services, Made>,
  ): ModuleList<Services & { [K in Name]: Made }> {
    return new ModuleList<Services & { [K in Name]: Made }>(this.base as Services & { [K in Name]: Made }, [...this.modules, module as unknown as AnyModule]);
  }

  async create(onClose: (close: () => Promise<void>) => void): Promise<MadeModules<Services>> {
    const services: Record<string, unknown> = { ...(this.base as Record<string, unknown>) };
    const lates: Array<Late<unknown> & { bound(): boolean }> = [];
    const host: ModuleHost = {
      late: <T>(name: string) => {
        const late = lateNeed<T>(name);
        lates.push(late as Late<unknown> & { bound(): boolean });
        return late;
      },
      onClose,
    };
    for (const module of this.modules) {
      services[module.name] = await module.create(services as never, host);
    }
    const unbound = lates.filter((late) => !late.bound()).map((late) => late.name);
    if (unbound.length > 0) throw new Error(`late needs never bound: ${unbound.join(', ')}`);
    const modules = this.modules;
    return {
      services: services as Services,
      async run(step, app) {
        for (const module of modules) await module[step]?.(app, services[module.name], services as never);
      },
    };
  }
}

function lateNeed<T>(name: string): Late<T> & { bound(): boolean } {
  let value: { current: T } | undefined;
  return {
    name,
    bind(next) {
      if (value) throw new Error(`late need bound twice: ${name}`);
      value = { current: next };
    },
    get() {
      if (!value) throw new Error(`late need used before it was bound: ${name}`);
      return value.current;
    },
    bound: () => value !== undefined,
  };
}
