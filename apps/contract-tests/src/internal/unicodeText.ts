/** Text beyond ASCII in the free-text fields of valid requests, each text kept within what every server accepts. */
import { ContractRules, Secrets } from "@data-access/schema"
import * as TextLength from "./textLength.js"

type Body = Record<string, unknown>

/** The longest free text a valid request sends: within 255 characters under every count (`TextLength.longest`). */
export const MAX_TEXT = 255

/**
 * Text beyond ASCII, sent in free-text fields of valid requests: astral characters and an emoji
 * sequence, combining marks, right-to-left scripts, zero-width characters, and one text in its NFC
 * and NFD forms (servers must store each as sent, code point for code point). Every piece is
 * caseless, so `search` and the case of filter operators read it the same under any case folding,
 * and none lies in U+E000..U+FFFF, so UTF-16, code point and UTF-8 byte order agree for `lower_than`
 * and `greater_than`. No lone surrogates: a request expected to be accepted is well-formed UTF-8.
 */
export const UNICODE_PIECES: ReadonlyArray<string> = [
  "\u{1F680}",
  "\u{1F469}\u200D\u{1F4BB}",
  "\u{1D7D8}\u{1D7D9}",
  "e\u0301",
  "\uD55C\uAE00",
  "\u1112\u1161\u11AB\u1100\u1173\u11AF",
  "\u6570\u636E",
  "\u05E9\u05DC\u05D5\u05DD",
  "\u0645\u0631\u062D\u0628\u0627",
  "a\u200Bb",
  "\u200F",
  "\u0928\u092E\u0938\u094D\u0924\u0947"
]

/** `text` with `piece` inserted at a code point boundary, cut to fit `MAX_TEXT` under every count. */
export const withPiece = (text: string, piece: string, at: number): string => {
  const points = Array.from(text)
  const i = at % (points.length + 1)
  const out = [...points.slice(0, i), piece, ...points.slice(i)]
  while (TextLength.longest(out.join("")) > MAX_TEXT && out.length > 1)
    out.splice(out[out.length - 1] === piece ? 0 : out.length - 1, 1)
  return out.join("")
}

/** Fields never given free text: references, formats, secrets, and the list controls. */
const NOT_FREE_TEXT: ReadonlySet<string> = new Set([
  "id",
  "cursor",
  "search",
  "searchFields",
  "order",
  "filter"
])

/** Whether a field of that name may hold free text: not an id, a list control, a format or a secret. */
export const isFreeText = (k: string): boolean =>
  !NOT_FREE_TEXT.has(k) && !ContractRules.formatFields.has(k) && !Secrets.isFieldName(k)

/**
 * The request with a piece of Unicode in each of its free-text string fields (top level and one
 * object deep), where the request still decodes.
 */
export const withUnicode = (
  body: Body,
  piece: string,
  at: number,
  skip: ReadonlySet<string>,
  decodes: (b: unknown) => boolean
): Body => {
  const out: Body = { ...body }
  const free = (k: string) => !skip.has(k) && isFreeText(k)
  for (const [k, v] of Object.entries(body)) {
    if (!free(k)) continue
    if (typeof v === "string" && v !== "") {
      out[k] = withPiece(v, piece, at)
      if (!decodes(out)) out[k] = v
    } else if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const inner: Body = { ...(v as Body) }
      for (const [ik, iv] of Object.entries(inner))
        if (typeof iv === "string" && iv !== "" && free(ik)) inner[ik] = withPiece(iv, piece, at)
      out[k] = inner
      if (!decodes(out)) out[k] = v
    }
  }
  return out
}

/**
 * Whether a letter's case maps one to one in every common library (Unicode's simple mapping since
 * 1.1, ICU, SQL collations, locale-free): Latin-1, Latin Extended-A, basic Greek and Cyrillic, the
 * letter and its other case single code points that map back to each other, and none of ß, ſ,
 * sigma (final form by context), dotted or dotless i, or Greek with accents (dropped by some
 * upper-casings).
 */
const oneToOne = (c: string, other: string): boolean =>
  other !== c &&
  other.length === c.length &&
  (c.toUpperCase() === other ? other.toLowerCase() === c : other.toUpperCase() === c) &&
  [c, other].every(
    (x) =>
      /^[A-Za-z\u00C0-\u017F\u0391-\u03A9\u03B1-\u03C9\u0400-\u045F]$/.test(x) &&
      !/[\u0130\u0131\u017F\u03A3\u03C2\u03C3]/.test(x)
  )

/** The letter of the other case, where it maps one to one (`oneToOne`); else the character itself. */
const swapped = (c: string): string => {
  const upper = c.toUpperCase()
  if (oneToOne(c, upper)) return upper
  const lower = c.toLowerCase()
  return oneToOne(c, lower) ? lower : c
}

/** `text` with the case of each letter that maps one to one swapped (`Été` → `éTÉ`), every other character kept. */
export const swappedCase = (text: string): string => Array.from(text, swapped).join("")

/** Whether `text` holds a letter beyond ASCII whose case maps one to one (`É`, `ж`...). */
export const hasCaseBeyondAscii = (text: string): boolean =>
  Array.from(text).some((c) => c > "\u007f" && swapped(c) !== c)

/**
 * Letters beyond ASCII in both cases, each mapping one to one (`oneToOne`): a name that holds them
 * is found by a `search` with their case swapped only when the server folds case beyond A to Z
 * (decisions.md section 3: search is case-insensitive).
 */
export const CASED_PIECE = "\u00C9t\u00E9-\u00DCber-\u0416\u0443\u043A-\u03A9\u03C9"

/** `text` with only A to Z lower-cased: a term of ASCII found so in a text is found under every case folding. */
export const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase())

/**
 * Texts one step from `text` that an exact comparison tells apart from it: its letters in the other
 * case (`case`), a space before it and one after it (`spaces`); none equal to `text`.
 */
export const nearTexts = (
  text: string
): ReadonlyArray<{ readonly text: string; readonly how: "case" | "spaces" }> => {
  const swapped = swappedCase(text)
  return [
    ...(swapped === text ? [] : [{ text: swapped, how: "case" as const }]),
    { text: ` ${text}`, how: "spaces" as const },
    { text: `${text} `, how: "spaces" as const }
  ]
}
