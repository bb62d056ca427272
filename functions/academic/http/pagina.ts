/**
 * Headers of every HTML page of the academic interface (the index and Swagger UI): no inline
 * scripts, nothing from other origins, no framing, no MIME sniffing.
 */
export const CABECERAS_DE_PAGINA: Record<string, string> = {
  "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};
