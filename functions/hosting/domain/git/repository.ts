/**
 * The repository API: everything callers need, re-exported from the focused modules beside it.
 */
export { initRepository, removeRepository, repositoryExists, repositorySize } from "./lifecycle.js";
export { commitActions, type CommitActionsInput } from "./commit.js";
export { revertCommit, cherryPickCommit, type ChangeInput, type RevertInput, type CherryPickInput } from "./commit-change.js";
export { commitDiff, commitDiffHasLine, commitStats, type DiffEntry, type DiffStats } from "./diff.js";
export { compareRefs, type Comparison } from "./compare.js";
export { commitSequence, contributors, type Contributor } from "./history.js";
export { languageShares } from "./languages.js";
export { refsContaining, mergeBase, type RefType } from "./ancestry.js";
export type { CommitAction } from "./actions.js";
export type { CommitInfo } from "./commit-info.js";
export {
  listTree,
  readFile,
  listCommits,
  getCommit,
  getCommitDetail,
  listBranches,
  defaultBranch,
  type TreeItem,
} from "./read.js";
export { setDefaultBranch } from "./head.js";
export { listBranchPage, findBranch, createBranch, deleteBranch, deleteMergedBranches, type Branch, type BranchSort } from "./branches.js";
export { listTagPage, findTag, createTag, deleteTag, type Tag, type TagOrder } from "./tags.js";
export { readBlobById } from "./blobs.js";
export { housekeep } from "./housekeeping.js";
export { repositorySnapshot } from "./snapshot.js";
export { checksum, replicaChecksums, checksumOfDir, checksumOfRefs, EMPTY_CHECKSUM } from "./checksum.js";
export { replicate, type RepositoryLocation, type ReplicateOptions } from "./replicate.js";
export { withRepositoryMutex } from "./mutex.js";
export { GitActionError, ChangeError, UnknownStorageError, RepositoryNotFoundError, ChecksumMismatchError } from "./errors.js";
export { fileAtRef, type FileAtRef, type FileLookup } from "./file-info.js";
export { blameAtRef, type BlameRange } from "./blame.js";
export { resolveArchive, archivePrefix, type ArchiveRequest, type ArchiveSource } from "./archive.js";
export { ARCHIVE_FORMATS, archiveChunks, archiveStream, type ArchiveKind, type ArchiveMeter } from "./archive-stream.js";
export { commitSignature, tagSignature, type Signature, type CertificateInfo } from "./signature.js";
