import { add } from '../util'

// An interface's method named as an imported function: its one-line
// declaration calls nothing.
export interface Adder {
  add(a: number, b: number): number
}

export function total(a: Adder): number {
  return a.add(1, 2) + add(3, 4)
}
