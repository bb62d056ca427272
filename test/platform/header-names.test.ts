/**
 * The encodings of names in headers (functions/platform/http/header-names.ts): `Content-Disposition`
 * as Rails builds it (the expected values are ActionDispatch's own test cases), and `X-Gitlab-*`
 * values that are GitLab's plain text when they can be and always decode back to the name.
 */
import { describe, it, expect } from "vitest";
import { contentDisposition, headerText } from "../../functions/platform/http/header-names.js";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

describe("contentDisposition", () => {
  it("is Rails' ContentDisposition.format", () => {
    expect(contentDisposition("inline", "racecar.jpg")).toBe(`inline; filename="racecar.jpg"; filename*=UTF-8''racecar.jpg`);
    expect(contentDisposition("inline", "råcëçâr.jpg")).toBe(`inline; filename="racecar.jpg"; filename*=UTF-8''r%C3%A5c%C3%AB%C3%A7%C3%A2r.jpg`);
    expect(contentDisposition("attachment", "автомобиль.jpg")).toBe(
      `attachment; filename="%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F.jpg"; filename*=UTF-8''%D0%B0%D0%B2%D1%82%D0%BE%D0%BC%D0%BE%D0%B1%D0%B8%D0%BB%D1%8C.jpg`,
    );
    expect(contentDisposition("inline", "argh+!#$-123_|&^`~.jpg")).toBe(`inline; filename="argh+!#$-123_|%26^\`~.jpg"; filename*=UTF-8''argh+!#$-123_|&^\`~.jpg`);
    expect(contentDisposition("inline")).toBe("inline");
  });

  it("carries any name in printable ASCII, the exact name in filename*", () => {
    for (const name of ["a\nb.txt", 'say "hi";\r\n.txt', "ctl\u0001\u007f.txt", "party 🎉👩‍💻.txt", "\u200fright\u202eleft.txt", "100% %41.txt", " padded ", "Straße Æsir.md", "\ud800 lone"]) {
      const value = contentDisposition("attachment", name);
      expect(value).toMatch(PRINTABLE_ASCII);
      const [, quoted, extended] = /^attachment; filename="([^"]*)"; filename\*=UTF-8''([^;\s"]+)$/.exec(value) ?? [];
      expect(decodeURIComponent(extended!)).toBe(name.replace("\ud800", "\ufffd"));
      expect(decodeURIComponent(quoted!)).toMatch(/^[\x00-\x7f]*$/);
    }
    expect(contentDisposition("inline", "Straße Æsir.md")).toMatch(/^inline; filename="Strasse AEsir.md";/);
  });
});

describe("headerText", () => {
  it("leaves a printable-ASCII name as GitLab sends it", () => {
    for (const name of ["README.md", "app/models/key.rb", 'say "hi" (1).txt', "a b", "main"]) expect(headerText(name)).toBe(name);
  });

  it("percent-encodes every other name, so that it always decodes back", () => {
    expect(headerText("a\nb.txt")).toBe("a%0Ab.txt");
    expect(headerText("tab\there")).toBe("tab%09here");
    expect(headerText("résumé.md")).toBe("r%C3%A9sum%C3%A9.md");
    expect(headerText("🎉")).toBe("%F0%9F%8E%89");
    // `%` itself, else "%41" sent as it is would read as "A"; spaces only where a parser would trim them.
    expect(headerText("100%.txt")).toBe("100%25.txt");
    expect(headerText(" padded .txt ")).toBe("%20padded .txt%20");
    for (const name of ["line\nbreak", "cr\r\n", "ctl\u0001\u001b\u007f", "\u200fright\u202eleft", "%41", " ", "日本 %"]) {
      expect(headerText(name)).toMatch(PRINTABLE_ASCII);
      expect(decodeURIComponent(headerText(name))).toBe(name);
    }
  });
});
