/**
 * The signer's certificate of an X.509 signature (CMS SignedData, as `gpgsm` writes it for git),
 * read with a few lines of DER walking and Node's `X509Certificate`: what GitLab's X.509 signature
 * entity shows of it. Nothing is verified here (there is no trust store for signers).
 */
import { X509Certificate } from "node:crypto";

export interface CertificateInfo {
  subject: string;
  subjectKeyIdentifier: string | null;
  email: string | null;
  /** Decimal, as GitLab shows it (a number too large for a JSON double). */
  serialNumber: string;
  issuer: { subject: string; subjectKeyIdentifier: string | null; crlUrl: string | null };
}


interface Tlv {
  tag: number;
  body: Buffer;
}

/** The DER elements one after another in `data`. */
function tlvs(data: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let i = 0; i < data.length; ) {
    const tag = data[i]!;
    let length = data[i + 1]!;
    let start = i + 2;
    if (length & 0x80) {
      const bytes = length & 0x7f;
      length = 0;
      for (let k = 0; k < bytes; k++) length = length * 256 + data[start + k]!;
      start += bytes;
    }
    if (start + length > data.length) throw new Error("truncated");
    out.push({ tag, body: data.subarray(start, start + length) });
    i = start + length;
  }
  return out;
}

const child = (tlv: Tlv | undefined, tag: number) => (tlv ? tlvs(tlv.body).find((t) => t.tag === tag) : undefined);
const colonHex = (b: Buffer | undefined) => (b ? [...b].map((x) => x.toString(16).padStart(2, "0").toUpperCase()).join(":") : null);
/** RFC 2253 order (most specific first, comma-separated), as GitLab shows names. */
const rfc2253 = (name: string) => name.split("\n").reverse().join(",");

const EXTENSIONS = { subjectKeyId: "551d0e", authorityKeyId: "551d23", crlDistributionPoints: "551d1f" };

export function signerCertificate(cms: Buffer): CertificateInfo | null {
  try {
    const [contentInfo] = tlvs(cms);
    const signedData = child(child(contentInfo, 0xa0), 0x30);
    const certificates = child(signedData, 0xa0);
    const [der] = certificates ? tlvs(certificates.body) : [];
    if (!der) return null;
    const whole = Buffer.concat([Buffer.from([0x30]), derLength(der.body.length), der.body]);
    const cert = new X509Certificate(whole);
    const extensions = extensionsOf(der);
    const email = /(?:^|, )email:([^,]+)/.exec(cert.subjectAltName ?? "")?.[1] ?? /(?:^|\n)emailAddress=(.+)/.exec(cert.subject)?.[1] ?? null;
    const authority = extensions.get(EXTENSIONS.authorityKeyId);
    const crl = extensions.get(EXTENSIONS.crlDistributionPoints);
    return {
      subject: rfc2253(cert.subject),
      subjectKeyIdentifier: colonHex(extensions.get(EXTENSIONS.subjectKeyId) && tlvs(extensions.get(EXTENSIONS.subjectKeyId)!)[0]?.body),
      email,
      serialNumber: BigInt(`0x${cert.serialNumber}`).toString(),
      issuer: {
        subject: rfc2253(cert.issuer),
        subjectKeyIdentifier: colonHex(authority && child(tlvs(authority)[0], 0x80)?.body),
        crlUrl: crl ? (findTag(crl, 0x86)?.toString("latin1") ?? null) : null,
      },
    };
  } catch {
    return null;
  }
}

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** The certificate's extensions by OID (hex of its DER body), each the value inside its OCTET STRING. */
function extensionsOf(certificate: Tlv): Map<string, Buffer> {
  const tbs = child(certificate, 0x30);
  const list = child(child(tbs, 0xa3), 0x30);
  const found = new Map<string, Buffer>();
  for (const extension of list ? tlvs(list.body) : []) {
    const parts = tlvs(extension.body);
    const value = parts.find((p) => p.tag === 0x04);
    if (parts[0]?.tag === 0x06 && value) found.set(parts[0].body.toString("hex"), value.body);
  }
  return found;
}

/** The first element with `tag` anywhere in the DER data (depth-first). */
function findTag(data: Buffer, tag: number): Buffer | undefined {
  for (const tlv of tlvs(data)) {
    if (tlv.tag === tag) return tlv.body;
    if (tlv.tag & 0x20) {
      const inner = findTag(tlv.body, tag);
      if (inner) return inner;
    }
  }
  return undefined;
}
