"use strict";
/**
 * isomorphic-git hashes packfiles it writes (and objects, where WebCrypto's SHA-1 is missing) with
 * sha.js, a JavaScript SHA-1 that brings a dozen small polyfill packages into every bundle. On Node
 * node:crypto's is native; package.json installs this module as `sha.js`, and its `overrides` give it to isomorphic-git.
 * The surface is sha.js's: `new Sha1().update(data[, encoding]).digest([encoding])`.
 */
const { createHash } = require("node:crypto");

class Sha1 {
  constructor() {
    this.hash = createHash("sha1");
  }

  update(data, encoding) {
    this.hash.update(data, encoding);
    return this;
  }

  digest(encoding) {
    return this.hash.digest(encoding);
  }
}

module.exports = Sha1;
