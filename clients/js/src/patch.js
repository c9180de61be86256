// RFC 6902 JSON Patch, applied by fast-json-patch. Imported by its default export: the
// one form that resolves the same in Node (its CommonJS main), bundlers and React
// Native (Metro) and in a browser without a bundler (its ES module, mapped by an import
// map: README.md, "In a browser without a bundler").
import jsonpatch from "fast-json-patch";

/** A patch that does not apply to the view it was sent for. */
export class PatchError extends Error {
  constructor(message, operation) {
    super(message);
    this.name = "PatchError";
    this.operation = operation;
  }
}

/**
 * `ops` applied to `doc`: a new document; `doc` itself is never changed, so a patch
 * that fails part way (a failed `test`, a path that does not exist) leaves it intact.
 * @throws {PatchError}
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is a list of operations");
  try {
    return jsonpatch.applyPatch(doc, ops, true, false).newDocument;
  } catch (err) {
    throw new PatchError(err instanceof Error ? err.message : String(err), err?.operation);
  }
}
