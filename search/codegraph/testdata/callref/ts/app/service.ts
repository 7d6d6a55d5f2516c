import { Store, Cache } from './store'

export interface Options<T> {
  store: Store
  label: T
}

export class Service<S extends Store = Store> {
  store: Options<string>['store']
  backing!: S
  cache = new Cache()

  constructor(private opts: Options<string>) {
    this.store = opts.store
  }

  get count(): number {
    return this.store.size + this.backing.size
  }

  run(): number {
    this.store.save('a')
    this.backing.clear()
    this.cache.save('k')
    const local = new Store()
    local.save('b')
    return this.count + local.size
  }
}
