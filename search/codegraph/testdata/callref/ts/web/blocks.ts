import { Router } from './types'
import { Other } from './other'

// Top-level statements whose blocks each declare a local of one name and
// another class.
function run(f: () => void): void {
  f()
}

run(() => {
  const app = new Router()
  app.get('/', (c) => c.text('a'))
})

run(() => {
  const app = new Other()
  app.json(1)
})
