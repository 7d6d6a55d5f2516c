// A tag of template literals.
export function html(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.join('') + values.join('')
}
