/* global console, URL */
// Writes contract-tests.config.schema.json, the JSON Schema of the config file for editors, from
// the settings table of the build (src/cli/settings.ts); a test checks it is fresh.
import { writeFileSync } from "node:fs"
import { configJsonSchema } from "../dist/cli/settings.js"

const file = new URL("../contract-tests.config.schema.json", import.meta.url)
writeFileSync(file, JSON.stringify(configJsonSchema(), null, 2) + "\n")
console.log("wrote contract-tests.config.schema.json")
