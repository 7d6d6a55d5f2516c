export class Other {
  json(v: unknown): string {
    return ''
  }
}
