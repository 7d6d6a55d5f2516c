// Functions named as util.ts's are: a call matched by name alone could not
// choose between them.
export function add(a: string, b: string): string {
  return a + b
}

export function format(s: string): string {
  return s.trim()
}

export function pick(s: string): string {
  return format(s)
}
