/** The package version, sent in `User-Agent`. A test checks it against package.json. */
export const version = "0.0.0"
