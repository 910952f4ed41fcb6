/**
 * The lengths a faithful server may give a string. The documents say "characters" without saying
 * how they are counted, so a server may count code points, UTF-16 code units, UTF-8 bytes or
 * user-perceived characters (grapheme clusters), of the text as sent or normalised to NFC or NFD.
 * A probe of a length limit is decisive only when it is over the limit under every count (its
 * `shortest` length) or within it under every count (its `longest`).
 */

/** The longest string every server accepts (decisions.md section 10, string-limits). */
export const SAFE_STRING_LENGTH = 255

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" })

const graphemes = (s: string): number => {
  let n = 0
  for (const _ of segmenter.segment(s)) n++
  return n
}

/** Every count of one form of the text. */
const countsOf = (s: string): ReadonlyArray<number> => [
  graphemes(s),
  Array.from(s).length,
  s.length,
  Buffer.byteLength(s, "utf8")
]

/** The text as sent, in NFC and in NFD. */
const forms = (s: string): ReadonlyArray<string> => [s, s.normalize("NFC"), s.normalize("NFD")]

/**
 * ASCII without a CR LF pair: every count is the number of UTF-16 units, and normalisation
 * changes nothing (a CR LF pair is one grapheme of two characters).
 */
const isPlain = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c > 0x7f || (c === 0x0d && s.charCodeAt(i + 1) === 0x0a)) return false
  }
  return true
}

/** Its length under every count a server may use, each form included (linear in the text: callers bound it). */
export const lengths = (s: string): ReadonlyArray<number> =>
  isPlain(s) ? [s.length] : forms(s).flatMap(countsOf)

/** The smallest length a server may see: a string over a limit under this count is over it under every count. */
export const shortest = (s: string): number => Math.min(...lengths(s))

/**
 * The largest length a server may see: a string within a limit under this count is within it under
 * every count. Of one form, the UTF-8 byte count is the largest (a grapheme holds one code point or
 * more, a code point one or two UTF-16 units, a UTF-16 unit one UTF-8 byte or more, and a pair four),
 * so the graphemes need not be counted here.
 */
export const longest = (s: string): number =>
  isPlain(s) ? s.length : Math.max(...forms(s).map((f) => Buffer.byteLength(f, "utf8")))

/** The longest prefix of `s`, cut at a grapheme boundary, whose `longest` length is at most `max`. */
export const cutTo = (s: string, max: number): string => {
  // The result has at most `max` code points (no count is smaller under `longest`): count no further.
  if (isPlain(s)) return s.slice(0, max)
  const head = s.length > 2 * (max + 1) ? s.slice(0, 2 * (max + 1)) : s
  if (head === s && longest(s) <= max) return s
  let out = ""
  for (const { segment } of segmenter.segment(head)) {
    if (longest(out + segment) > max) break
    out += segment
  }
  return out
}
