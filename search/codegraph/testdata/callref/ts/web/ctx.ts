export class Ctx {
  get path(): string {
    return '/'
  }

  json(v: unknown): string {
    return String(v)
  }

  text(s: string): string {
    return s
  }
}
