export class Req {
  get url(): string {
    return '/'
  }

  header(name: string): string {
    return name
  }
}

export class Ctx {
  get path(): string {
    return '/'
  }

  get req(): Req {
    return new Req()
  }

  json(v: unknown): string {
    return String(v)
  }

  text(s: string): string {
    return s
  }
}
