export * from "./repository.js";
export { replicaPaths, primaryPath, storageRoots, hashedRelativePath, type RepositoryKind } from "./storage.js";
