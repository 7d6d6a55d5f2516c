// A barrel: everything of ops, and square under another name.
export * from './ops'
export { square as sq } from './square'
