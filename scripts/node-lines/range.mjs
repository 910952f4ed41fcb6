// A small check of a version against an `engines.node` range: the subset of npm's range syntax
// that engines fields use (`>=20.11`, `^22.19 || >=24`, `20.x`, `~22.12`, `>=20 <23`). Anything
// else throws, so an unusual range is noticed rather than guessed at.

const parse = (text) => {
  const match = /^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(text)
  if (match === null) throw new Error(`unsupported version in a range: "${text}"`)
  const parts = match
    .slice(1)
    .map((p) => (p === undefined || /^[xX*]$/.test(p) ? undefined : Number(p)))
  // a wildcard ends the version: 20.x.5 means 20.x
  const given = parts.indexOf(undefined) === -1 ? 3 : parts.indexOf(undefined)
  return { parts: parts.slice(0, given), given }
}

const compare = (a, b) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0)
  return 0
}

/** The next version after every version matching a partial one: 20 -> 21.0.0, 20.11 -> 20.12.0. */
const after = (parts) =>
  parts.length === 0 ? [Infinity] : [...parts.slice(0, -1), parts[parts.length - 1] + 1]

/** One comparator as [lower bound (inclusive), upper bound (exclusive)] checks. */
const comparator = (text) => {
  const match = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(text)
  if (match === null) throw new Error(`unsupported comparator: "${text}"`)
  const [, op = "=", rest] = match
  const { parts, given } = parse(rest)
  const full = given === 3
  switch (op) {
    case ">=":
      return (v) => compare(v, parts) >= 0
    case ">":
      return full ? (v) => compare(v, parts) > 0 : (v) => compare(v, after(parts)) >= 0
    case "<":
      return (v) => compare(v, parts) < 0
    case "<=":
      return full ? (v) => compare(v, parts) <= 0 : (v) => compare(v, after(parts)) < 0
    case "=":
      return full
        ? (v) => compare(v, parts) === 0
        : (v) => compare(v, parts) >= 0 && compare(v, after(parts)) < 0
    case "^": {
      // the first non-zero part may not change (^0.x is not used for Node versions)
      if (parts[0] === 0) throw new Error(`unsupported range: "${text}"`)
      return (v) => compare(v, parts) >= 0 && compare(v, after(parts.slice(0, 1))) < 0
    }
    case "~":
      return (v) =>
        compare(v, parts) >= 0 &&
        compare(v, after(parts.slice(0, Math.max(1, Math.min(2, given))))) < 0
  }
}

/** Whether `version` (e.g. "22.23.3") satisfies `range` (e.g. ">=20.11"); no range means any. */
export const satisfies = (version, range) => {
  if (range === undefined || range.trim() === "" || range.trim() === "*") return true
  const { parts, given } = parse(version)
  if (given !== 3) throw new Error(`not an exact version: "${version}"`)
  return range.split("||").some((set) => {
    const words = set
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
      .split(/\s+/)
    if (words.includes("-")) throw new Error(`unsupported range (hyphen): "${range}"`)
    return words.every((word) => word === "*" || word === "" || comparator(word)(parts))
  })
}
