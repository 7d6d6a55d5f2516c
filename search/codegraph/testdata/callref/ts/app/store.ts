export class Store {
  private items: string[] = []

  get size(): number {
    return this.items.length
  }

  save(item: string): void {
    this.items.push(item)
  }

  clear(): void {
    this.items = []
  }
}

export class Cache {
  save(key: string): void {
    console.log(key)
  }

  get size(): number {
    return 0
  }
}

export function openStore(): Store {
  return new Store()
}

export class Registry {
  private names = new Set<string>()

  delete(name: string): boolean {
    return this.names.delete(name)
  }

  clear(): void {
    for (const n of this.names) this.delete(n)
  }

  [Symbol.iterator](): Iterator<string> {
    return this.values()
  }

  values(): Iterator<string> {
    return this.names.values()
  }
}
