import { html } from './tags'

// A component a JSX element calls, and a tagged template calling its tag.
export function Box(props: { title: string }): string {
  return props.title
}

export function page(): unknown {
  return <Box title={html`<b>${1}</b>`} />
}
