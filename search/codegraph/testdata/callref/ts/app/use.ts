import { openStore, Registry } from './store'

export function useStore(): void {
  openStore().save('x')
  new Registry().clear()
}
