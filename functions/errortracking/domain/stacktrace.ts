/**
 * GitLab's `ErrorTracking::StacktraceBuilder`: the frames of the first `exception.values[]` entry that
 * has a stack trace (else the first `threads.values[]` entry that has one), each as
 * `{lineNo, context: [[lineNo, line], …], filename, abs_path, function, colNo: 0}` where `context` is
 * `pre_context` numbered up to the line, `context_line` at `lineno`, then `post_context`.
 *
 * GitLab sends the context lines syntax-highlighted (HTML) and its UI renders them as HTML; we send
 * them HTML-escaped, without highlighting, so the same rendering stays safe with any event content.
 */
import { exceptionValues, framesOf } from "./event.js";

type Obj = Record<string, unknown>;

export interface StackTraceEntry {
  lineNo: number | null;
  context: Array<[number, string]>;
  filename: string | null;
  abs_path: string | null;
  function: string | null;
  colNo: 0;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
const text = (v: unknown) => (typeof v === "string" ? v : null);

function rawFrames(payload: Obj): Obj[] {
  const fromException = exceptionValues(payload).find((v) => framesOf(v).length > 0);
  if (fromException) return framesOf(fromException);
  const threads = payload.threads as { values?: unknown } | undefined;
  const values = Array.isArray(threads?.values) ? (threads.values as Obj[]) : [];
  return framesOf(values.find((t) => t && typeof t === "object" && framesOf(t).length > 0));
}

function contextOf(frame: Obj): Array<[number, string]> {
  const lineNo = frame.lineno;
  if (typeof lineNo !== "number") return [];
  const lines = (list: unknown, from: number): Array<[number, string]> =>
    Array.isArray(list) ? list.flatMap((l, i) => (typeof l === "string" ? [[from + i, escapeHtml(l)] as [number, string]] : [])) : [];
  const pre = Array.isArray(frame.pre_context) ? frame.pre_context : [];
  return [...lines(pre, lineNo - pre.length), ...lines([frame.context_line], lineNo), ...lines(frame.post_context, lineNo + 1)];
}

export function stackTraceEntries(payload: Obj): StackTraceEntry[] {
  return rawFrames(payload).map((f) => ({
    lineNo: typeof f.lineno === "number" ? f.lineno : null,
    context: contextOf(f),
    filename: text(f.filename),
    abs_path: text(f.abs_path),
    function: text(f.function),
    colNo: 0,
  }));
}
