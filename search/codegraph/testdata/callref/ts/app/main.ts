import format, { add, twice as tw, pick } from '../util'
import * as m from '../math'
import { sq } from '../math/index'
import { div } from '../math/ops.js'
import { Service } from './service'

export function main(): string {
  const n = add(1, 2) + tw(3) + m.mul(2, 3) + m.sq(2) + sq(3) + div(4, 2)
  const first = pick<number>([n])
  new Service({ store: null as never }).run()
  return format(first)
}

main()
