// The parts of the third-party modules the TypeScript examples of the
// language standards use, declared as the real packages declare them, so
// that `tsc --strict` checks the examples' calls. Only what the examples
// use is here; the check fails on anything else, so a new example that
// uses more of a framework adds its declaration here.

// What vitest and @jest/globals have in common, re-exported below under
// each package's name.
declare module "test-runner-stub" {
  type Body = () => void | Promise<void>;
  interface Test {
    (name: string, fn: Body): void;
    each<T>(cases: readonly T[]): (name: string, fn: (c: T) => void | Promise<void>) => void;
  }
  interface Matchers {
    toBe(expected: unknown): void;
    toEqual(expected: unknown): void;
    toMatchObject(expected: object): void;
    toThrow(expected?: RegExp | string): void;
  }
  interface Timers {
    useFakeTimers(): Timers;
    useRealTimers(): Timers;
    setSystemTime(now: Date | number): Timers;
    advanceTimersByTime(ms: number): Timers;
  }
  export const describe: (name: string, fn: () => void) => void;
  export const it: Test;
  export const test: Test;
  export function expect(actual: unknown): Matchers;
  export const timers: Timers;
}

declare module "vitest" {
  export { describe, expect, it, test, timers as vi } from "test-runner-stub";
}

declare module "@jest/globals" {
  export { describe, expect, it, test, timers as jest } from "test-runner-stub";
}

declare module "supertest" {
  interface Response {
    status: number;
    body: any;
    headers: Record<string, string>;
  }
  interface Agent {
    get(url: string): Promise<Response>;
    delete(url: string): Promise<Response>;
  }
  export default function request(app: unknown): Agent;
}

declare module "zod" {
  export namespace z {
    interface ZodType<T> {
      readonly _output: T;
      parse(data: unknown): T;
      safeParse(data: unknown): { success: true; data: T } | { success: false; error: ZodError };
    }
    interface ZodError extends Error {
      flatten(): { formErrors: string[]; fieldErrors: Record<string, string[] | undefined> };
    }
    interface ZodString extends ZodType<string> {
      email(): ZodString;
      min(n: number): ZodString;
      max(n: number): ZodString;
    }
    function string(): ZodString;
    function object<S extends Record<string, ZodType<unknown>>>(shape: S): ZodType<{ [K in keyof S]: S[K]["_output"] }>;
    type infer<T extends ZodType<unknown>> = T["_output"];
  }
}

declare module "express" {
  export interface Request {
    body: unknown;
    path: string;
    params: Record<string, string>;
    header(name: string): string | undefined;
  }
  export interface Response {
    locals: Record<string, any>;
    status(code: number): Response;
    json(body: unknown): Response;
  }
  export type NextFunction = (err?: unknown) => void;
  export type RequestHandler = (req: Request, res: Response, next: NextFunction) => void;
  export type ErrorRequestHandler = (err: any, req: Request, res: Response, next: NextFunction) => void;
  export interface Express {
    use(handler: RequestHandler | ErrorRequestHandler): Express;
    get(path: string, handler: RequestHandler): Express;
    post(path: string, handler: RequestHandler): Express;
  }
  export default function express(): Express;
}

declare module "fastify" {
  export interface FastifyError extends Error {
    code: string;
    statusCode?: number;
  }
  export interface FastifyRequest {
    id: string;
    body: unknown;
    log: { error(obj: object, msg: string): void };
  }
  export interface FastifyReply {
    status(code: number): FastifyReply;
    send(body?: unknown): FastifyReply;
  }
  export interface FastifyInstance {
    setErrorHandler(handler: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown): FastifyInstance;
    post(path: string, handler: (request: FastifyRequest, reply: FastifyReply) => unknown): FastifyInstance;
    inject(opts: { method: string; url: string; payload?: unknown }): Promise<{ statusCode: number; body: string; json(): any }>;
    close(): Promise<void>;
  }
  export default function Fastify(opts?: object): FastifyInstance;
}
