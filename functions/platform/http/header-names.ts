/**
 * Response headers that carry a name someone chose: a file's path, a ref, an archive's file name.
 * Git and the API accept names no header can carry as they are: a newline or another control
 * character makes Node refuse the header (the answer would be a 500), a header parser trims
 * surrounding spaces, and API Gateway passes a Lambda's header values on as text, so bytes beyond
 * ASCII would arrive re-encoded. Every such header is therefore printable ASCII, and decodes back
 * to the exact name.
 */

/** Bytes sent as they are: printable ASCII, except `%`, which would make the decoding ambiguous. */
const plainByte = (byte: number) => byte >= 0x20 && byte < 0x7f && byte !== 0x25;

const escapeByte = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;

/**
 * An `X-Gitlab-*` value: GitLab's plain text when it is printable ASCII without a leading or trailing
 * space (what Rack would send unchanged), else its UTF-8 bytes percent-encoded (RFC 3986), so
 * `decodeURIComponent` always gives the name back. `%` is always encoded, so a name that only looks
 * encoded is never read as encoded.
 */
export function headerText(value: string): string {
  const bytes = Buffer.from(value, "utf8");
  const last = bytes.length - 1;
  const plain = (byte: number, i: number) => plainByte(byte) && !(byte === 0x20 && (i === 0 || i === last));
  if (bytes.every(plain)) return value;
  return Array.from(bytes, (byte, i) => (plain(byte, i) ? String.fromCharCode(byte) : escapeByte(byte))).join("");
}

/** Characters Rails leaves as they are in `filename="…"` and in `filename*=UTF-8''…` (RFC 5987). */
const QUOTED_SAFE = /^[ A-Za-z0-9!#$+.^_`|~-]$/;
const EXTENDED_SAFE = /^[A-Za-z0-9!#$&+.^_`|~-]$/;

function percentEscape(text: string, safe: RegExp): string {
  let out = "";
  for (const char of text) out += safe.test(char) ? char : Array.from(Buffer.from(char, "utf8"), escapeByte).join("");
  return out;
}

/** Latin letters that do not decompose into a base letter and marks (I18n's approximations). */
const APPROXIMATIONS: Record<string, string> = {
  Æ: "AE", æ: "ae", Ð: "D", ð: "d", Đ: "D", đ: "d", Ø: "O", ø: "o", Þ: "Th", þ: "th", ß: "ss",
  Œ: "OE", œ: "oe", Ł: "L", ł: "l", Ħ: "H", ħ: "h", ı: "i", Ŧ: "T", ŧ: "t", Ŋ: "NG", ŋ: "ng", "×": "x",
};

/** Rails' `I18n.transliterate`: accents dropped, other characters beyond ASCII as `?`. */
function transliterate(text: string): string {
  let out = "";
  for (const char of text.normalize("NFD").replace(/\p{M}/gu, "")) out += char.charCodeAt(0) < 0x80 ? char : (APPROXIMATIONS[char] ?? "?");
  return out;
}

/**
 * `Content-Disposition` as GitLab builds it (`ActionDispatch::Http::ContentDisposition.format`, RFC
 * 6266): `filename="…"` transliterated to ASCII for old clients, and the exact name as
 * `filename*=UTF-8''…` (RFC 5987), which clients that know it prefer.
 */
export function contentDisposition(disposition: "inline" | "attachment", filename?: string): string {
  if (filename === undefined) return disposition;
  return `${disposition}; filename="${percentEscape(transliterate(filename), QUOTED_SAFE)}"; filename*=UTF-8''${percentEscape(filename, EXTENDED_SAFE)}`;
}
