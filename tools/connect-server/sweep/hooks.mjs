// Module hooks of a variant server: the reference server's clock and id modules replaced by the
// variant's (SWEEP_CLOCK, SWEEP_IDS), so that the domain stamps and names objects another way.
import { URL } from "node:url"
import process from "node:process"
const replaced = {
  "/reference-server/dist/internal/clock.js":
    process.env.SWEEP_CLOCK && new URL("./clock.mjs", import.meta.url).href,
  "/reference-server/dist/internal/random.js":
    process.env.SWEEP_IDS && new URL("./random.mjs", import.meta.url).href
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  for (const [tail, url] of Object.entries(replaced))
    if (url && resolved.url.endsWith(tail)) return { url, shortCircuit: true }
  return resolved
}
