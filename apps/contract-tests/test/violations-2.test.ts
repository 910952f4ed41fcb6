// One share of the cases of violations.ts.
import { shard } from "./violations.js"

shard(2, 4)
