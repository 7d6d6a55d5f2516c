import { Router } from './types'
import type { Handler, Middleware } from './types'

// A callback's parameter has the type the callee's declaration gives it
// at that argument: a field typed with an interface's call signatures, a
// method's rest parameter, a function's parameter.
export function routes(app: Router): void {
  app.get('/', (c) => c.json(c.path))
  app.use('*', async (c, next) => {
    c.text('x')
    next()
  })
  app.mixed((c) => c.json(1))
  wrap((c) => c.text('y'))
}

export function wrap(h: Handler): Handler {
  return h
}

// A variable declared with a function type, and a function declared to
// return one.
export const home: Handler = (c) => c.json({})

export function logger(): Middleware {
  return async (c, next) => {
    c.text(c.path)
    next()
  }
}

// A function expression returned, named as the function returning it; a
// method called through a getter of the parameter's class.
export const guard = (): Middleware => {
  return async function guard(c, next) {
    c.req.header(c.req.url)
    next()
  }
}

// A signature over several lines: its return type is read from the body's
// first lines, not taken for a callback's parameter.
export const limit = (
  max: number
): Middleware => {
  return async (c, next) => {
    c.text(String(max))
    next()
  }
}

// A callback passed to a method of what a call returns: the class its
// declaration says it returns, the same for every overload that fits.
export function chained(app: Router): void {
  app.get('/a', wrap).use('*', async (c, next) => {
    c.json(c.path)
    next()
  })
}

export function made(): void {
  new Router().get('/', (c) => c.text('z'))
}
