import { Ctx } from './ctx'
import { Other } from './other'

// A type guard narrows its argument over the branch it guards.
export function isCtx(x: unknown): x is Ctx {
  return x instanceof Ctx
}

export function describe(x: unknown): string {
  if (isCtx(x)) {
    return x.text('ctx')
  }
  return ''
}

// Casts give their expression the class they name.
export function cast(x: unknown): string {
  return (x as Ctx).json(1) + (<Other>x).json(2)
}

// A Map's get(k) gives a value of the Map's value type; a let declared
// with a type and no value is of that type.
export class Registry {
  private byName: Map<string, Ctx> = new Map()

  find(name: string): string {
    const found = this.byName.get(name)
    let other: Other
    other = new Other()
    return (this.byName.get(name)?.text(name) ?? '') + found!.json(name) + other.json(1)
  }
}
