/* global URL, console */
// Writes openapi.json (the OpenAPI 3.1 document of the whole API) from the built operation table.
import { readFileSync, writeFileSync } from "node:fs"
import { make } from "../dist/OpenApi.js"

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
const doc = make({ version: pkg.version })
writeFileSync(new URL("../openapi.json", import.meta.url), JSON.stringify(doc, null, 2) + "\n")
console.log(`openapi.json: ${Object.keys(doc.paths).length} paths`)
