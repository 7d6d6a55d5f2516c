// Plain functions: named, default and arrow exports, same-file calls.
export function add(a: number, b: number): number {
  return helper(a) + b
}

function helper(x: number): number {
  return x
}

export const twice = (x: number): number => add(x, x)

export function pick<T>(xs: T[]): T {
  return xs[0]
}

export default function format(n: number): string {
  return String(helper(n))
}
