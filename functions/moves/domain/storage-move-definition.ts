/** `storage-move.asl.json`, the definition the state machine runs, for what draws and reads it (the console). */
import definition from "../storage-move.asl.json";
import type { AslMachine } from "./asl-graph.js";

export const STORAGE_MOVE_DEFINITION = definition as unknown as AslMachine;
