"use strict";
/**
 * isomorphic-git is written for browsers and inflates every Git object it reads with pako, a
 * JavaScript port of zlib. On Node (all this service runs on) node:zlib is the same algorithm in
 * native code: faster reads, and 45 KiB less for every Lambda that opens repositories to load at
 * a cold start. package.json installs this module as `pako`, and its `overrides` give it to isomorphic-git.
 *
 * The surface is what isomorphic-git 1.x calls, with pako 1.0's semantics:
 * - `inflate(data)` / `deflate(data)`: whole buffers; a corrupt stream throws a string, as pako
 *   does (isomorphic-git turns strings into its `DecompressionError`);
 * - `new Inflate()`, `push(chunk)` until `result` is set or `err` is non-zero, and
 *   `strm.avail_in`, the bytes of the input after the end of the deflate stream (a packfile's
 *   objects follow one another, and the reader steps back by that much).
 */
const zlib = require("node:zlib");

const asBuffer = (data) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));

function inflate(data) {
  try {
    return zlib.inflateSync(asBuffer(data));
  } catch (err) {
    throw err.message;
  }
}

function deflate(data) {
  return zlib.deflateSync(asBuffer(data));
}

class Inflate {
  constructor() {
    this.chunks = [];
    this.result = undefined;
    this.err = 0;
    this.msg = "";
    this.strm = { avail_in: 0 };
  }

  push(data) {
    if (this.result !== undefined || this.err !== 0) return false;
    this.chunks.push(asBuffer(data));
    const input = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    try {
      const { buffer, engine } = zlib.inflateSync(input, { info: true });
      this.result = buffer;
      this.strm.avail_in = input.length - engine.bytesWritten;
    } catch (err) {
      // The stream goes on in the next chunk; anything else is corrupt data.
      if (err.code === "Z_BUF_ERROR") return true;
      this.err = typeof err.errno === "number" && err.errno !== 0 ? err.errno : -3;
      this.msg = err.message;
      return false;
    }
    return true;
  }
}

module.exports = { inflate, deflate, Inflate };
