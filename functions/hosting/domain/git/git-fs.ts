/**
 * The filesystem client handed to isomorphic-git: node's, except that files are written to a
 * temporary name and renamed into place. isomorphic-git writes loose objects in place and treats
 * an existing file as a finished object, so a Lambda killed mid-write (timeout) would otherwise
 * leave a truncated object that every later write trusts and every reader chokes on.
 */
import { randomBytes } from "node:crypto";
import * as fsp from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** git itself names temporary object files like this; `git fsck` and `git gc` know to ignore them. */
export const GIT_TEMP_PREFIX = "tmp_obj_";

async function writeFileAtomically(path: string, data: string | Uint8Array, options?: Parameters<typeof fsp.writeFile>[2]) {
  const tmp = join(dirname(path), `${GIT_TEMP_PREFIX}${basename(path).slice(0, 8)}_${randomBytes(6).toString("hex")}`);
  await fsp.writeFile(tmp, data, options);
  try {
    await fsp.rename(tmp, path);
  } catch (err) {
    await fsp.unlink(tmp).catch(() => undefined);
    throw err;
  }
}

export const gitFs = {
  promises: {
    readFile: fsp.readFile,
    writeFile: writeFileAtomically,
    unlink: fsp.unlink,
    readdir: fsp.readdir,
    mkdir: fsp.mkdir,
    rmdir: fsp.rmdir,
    stat: fsp.stat,
    lstat: fsp.lstat,
    readlink: fsp.readlink,
    symlink: fsp.symlink,
    chmod: fsp.chmod,
    rm: fsp.rm,
  },
};
