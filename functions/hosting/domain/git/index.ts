export * from "./repository.js";
export { replicaPaths, primaryPath, hashedRelativePath, type RepositoryKind } from "./storage.js";
