/** The part of compressjs (no published types) the archive's bzip2 formats use. */
declare module "compressjs" {
  export const Bzip2: {
    /** A complete bzip2 stream of `input`; `blockSize` 1–9 is bzip2's -1…-9. */
    compressFile(input: Uint8Array, output: null, blockSize: number): Uint8Array;
  };
  const compressjs: { Bzip2: typeof Bzip2 };
  export default compressjs;
}
