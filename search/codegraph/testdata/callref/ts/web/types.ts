import type { Ctx } from './ctx'
import type { Other } from './other'

// A handler is one of two function types whose first parameter agrees.
export type Handler = (c: Ctx, next: () => void) => string
export type Middleware = (c: Ctx, next: () => void) => Promise<void>
export type H = Handler | Middleware

// An interface with call signatures: the overload taken is the one whose
// parameters the call's arguments fit.
export interface Route {
  (handler: H): Router
  (path: string, handler: H): Router
  (path: string, ...handlers: H[]): Router
}

// Union members that disagree: the compiler gives the parameter no type.
export type Mixed = ((c: Ctx) => void) | ((c: Other) => void)

export class Router {
  get!: Route
  use(path: string, ...handlers: Middleware[]): Router {
    return this
  }
  mixed(handler: Mixed): void {}
}
