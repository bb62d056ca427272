/**
 * Uploaded user avatars, kept in the table next to the user (GitLab caps an avatar at 200 KiB, well
 * under an item's 400 KB) and served back at GitLab's path. Only the image formats GitLab accepts,
 * recognised by their leading bytes rather than by the name the client sent.
 */
import { deleteItem, getItem, putItem } from "../../platform/db/table.js";
import { validationError } from "../../platform/http/errors.js";

/** GitLab's `Avatarable::MAXIMUM_FILE_SIZE`. */
export const MAX_AVATAR_BYTES = 200 * 1024;

const FORMATS: Array<{ ext: string; type: string; magic: (b: Uint8Array) => boolean }> = [
  { ext: "png", type: "image/png", magic: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { ext: "jpg", type: "image/jpeg", magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: "gif", type: "image/gif", magic: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 },
  { ext: "bmp", type: "image/bmp", magic: (b) => b[0] === 0x42 && b[1] === 0x4d },
  { ext: "tiff", type: "image/tiff", magic: (b) => (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a) || (b[0] === 0x4d && b[1] === 0x4d && b[3] === 0x2a) },
  { ext: "ico", type: "image/vnd.microsoft.icon", magic: (b) => b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0 },
  { ext: "webp", type: "image/webp", magic: (b) => b[0] === 0x52 && b[1] === 0x49 && b[8] === 0x57 && b[9] === 0x45 },
];

const avatarKey = (userId: number) => ({ pk: `USER#${userId}`, sk: "AVATAR" });

/** Checks an upload as GitLab's avatar validations do; answers their messages under `avatar`. */
export async function readAvatar(file: File): Promise<{ bytes: Uint8Array; filename: string; type: string }> {
  if (file.size > MAX_AVATAR_BYTES) throw validationError({ avatar: ["is too big (should be at most 200 KiB)"] });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const format = FORMATS.find((f) => bytes.length >= 12 && f.magic(bytes));
  if (!format) {
    throw validationError({ avatar: ["file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico or webp"] });
  }
  return { bytes, filename: `avatar.${format.ext}`, type: format.type };
}

export async function saveAvatar(userId: number, avatar: { bytes: Uint8Array; filename: string; type: string }): Promise<void> {
  await putItem({ ...avatarKey(userId), type: "avatar", data: avatar.bytes, filename: avatar.filename, contentType: avatar.type });
}

export async function loadAvatar(userId: number): Promise<{ data: Uint8Array; filename: string; contentType: string } | undefined> {
  return getItem(avatarKey(userId).pk, avatarKey(userId).sk, false);
}

export async function deleteAvatar(userId: number): Promise<void> {
  await deleteItem(avatarKey(userId).pk, avatarKey(userId).sk);
}
