/**
 * A second faithful server of the API on the official Connect stack (connect-node, protobuf-es),
 * the second target of the contract tests' faithful proof.
 */
export {
  latitude,
  make,
  type Options,
  registry,
  type Running,
  start,
  withConnectGet
} from "./server.js"
