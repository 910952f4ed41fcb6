// One share of the cases of faithful.ts.
import { shard } from "./faithful.js"

shard(1, 3)
