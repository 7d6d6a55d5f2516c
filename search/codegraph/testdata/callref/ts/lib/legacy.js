// JavaScript importing with the extension the emitted file will have.
import { add } from '../util.js'
import { square } from '../math/square'

export function sumSquares(a, b) {
  return add(square(a), square(b))
}

export function run() {
  return sumSquares(1, 2)
}
