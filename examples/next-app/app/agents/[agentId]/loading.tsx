// With cacheComponents the page reads params and the service: it streams in behind this.
export default function Loading() {
  return <p>Loading the agent…</p>;
}
