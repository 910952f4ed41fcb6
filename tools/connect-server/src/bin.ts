/**
 * Starts the Connect-stack server: `node dist/bin.js [--port N] [--host H] [--h2c]`; prints its URL
 * and stops on SIGINT or SIGTERM. `--h2c` serves HTTP/2 without TLS only, as connect-node's
 * documentation does.
 */
import { parseArgs } from "node:util"
import { start } from "./server.js"

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
    h2c: { type: "boolean", default: false }
  }
})
const server = await start({ port: Number(values.port), host: values.host, h2c: values.h2c })
process.stdout.write(`listening on ${server.url}\n`)
const stop = () => void server.close().then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
