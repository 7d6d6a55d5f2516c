export function mul(a: number, b: number): number {
  return a * b
}

export function div(a: number, b: number): number {
  return mul(a, 1 / b)
}
