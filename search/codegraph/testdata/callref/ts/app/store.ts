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
