/**
 * GitLab's signature entities (`CommitSignature`, `TagSignature`): the fields of each signature
 * type, keyless here (`signature.ts`: no user keys or certificates are stored).
 */
import type { Context } from "hono";
import type { Signature } from "../domain/git/index.js";

function fields(signature: Signature) {
  switch (signature.type) {
    case "PGP":
      return { gpg_key_id: null, gpg_key_primary_keyid: signature.keyId, gpg_key_user_name: null, gpg_key_user_email: null, gpg_key_subkey_id: null };
    case "SSH":
      return { key: null };
    case "X509": {
      const cert = signature.certificate;
      const x509_certificate = cert && {
        id: null,
        subject: cert.subject,
        subject_key_identifier: cert.subjectKeyIdentifier,
        email: cert.email,
        serial_number: cert.serialNumber,
        certificate_status: "good",
        x509_issuer: { id: null, subject: cert.issuer.subject, subject_key_identifier: cert.issuer.subjectKeyIdentifier, crl_url: cert.issuer.crlUrl },
      };
      return { x509_certificate };
    }
  }
}

/**
 * The answer as JSON; an X.509 serial number is a JSON number as GitLab sends it, whole, although
 * it is far beyond what a double holds.
 */
export function signatureResponse(c: Context, signature: Signature, extra: Record<string, unknown> = {}): Response {
  const body = JSON.stringify({ signature_type: signature.type, verification_status: signature.status, ...fields(signature), ...extra });
  const serial = signature.type === "X509" ? signature.certificate?.serialNumber : undefined;
  return c.body(serial ? body.replace(`"serial_number":"${serial}"`, `"serial_number":${serial}`) : body, 200, { "Content-Type": "application/json" });
}
