// Another mul, in the barrel's folder but not re-exported by it.
export function mul(a: string): string {
  return a
}
