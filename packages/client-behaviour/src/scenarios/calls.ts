/** The calls the scenarios make, with the defaults they share: no retries, through the service's tag. */
import type { ScenarioCall } from "../scenario.js"

/** A GetResource of `id` through `ResourceService`, without retries unless `more` says otherwise. */
export const getResource = (id: string, more: Partial<ScenarioCall> = {}): ScenarioCall => ({
  method: "GetResource",
  request: { id },
  retry: "none",
  viaService: true,
  ...more
})
