/** The one module of compressjs (no published types) the archive's bzip2 formats load. */
declare module "@ledgerhq/compressjs/src/lib/Bzip2.js" {
  const Bzip2: {
    /** A complete bzip2 stream of `input`; `blockSize` 1–9 is bzip2's -1…-9. */
    compressFile(input: Uint8Array, output: null, blockSize: number): Uint8Array;
  };
  export default Bzip2;
}
