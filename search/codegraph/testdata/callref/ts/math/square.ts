import { mul } from './ops'

export function square(a: number): number {
  return mul(a, a)
}
