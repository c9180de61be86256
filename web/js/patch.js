// RFC 6902 JSON Patch applier with RFC 6901 JSON Pointers.
//
// The server sends every change as a patch from this client's previous view to the new
// one, so the view the client shows is only ever as good as this file. A patch is applied
// atomically: the document is copied first and the copy is returned only when every
// operation succeeded, so a failed `test` or a bad path leaves the caller's view intact
// (the caller then asks the server for a fresh snapshot).

export class PatchError extends Error {
  constructor(message, op) {
    super(message);
    this.name = "PatchError";
    this.op = op;
  }
}

/** Split a JSON Pointer into reference tokens ("" is the whole document). */
export function parsePointer(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || pointer[0] !== "/") {
    throw new PatchError(`invalid JSON Pointer ${JSON.stringify(pointer)}`);
  }
  // ~1 must be decoded before ~0, else "~01" would wrongly become "/" (RFC 6901 section 4).
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Encode one key for use inside a JSON Pointer. */
export function escapeToken(token) {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Structural equality as the `test` operation defines it. */
export function deepEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

function clone(value) {
  return value === undefined ? undefined : structuredClone(value);
}

// An array index token: "0" or digits without a leading zero (RFC 6901 section 4).
function arrayIndex(token, length, allowEnd, op) {
  if (allowEnd && token === "-") return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw new PatchError(`bad array index ${JSON.stringify(token)}`, op);
  }
  const index = Number(token);
  if (index > length || (!allowEnd && index === length)) {
    throw new PatchError(`array index ${index} out of range`, op);
  }
  return index;
}

function resolve(doc, tokens, op) {
  let node = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      node = node[arrayIndex(token, node.length, false, op)];
    } else if (isObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      throw new PatchError(`path ${JSON.stringify(op.path)} does not exist`, op);
    }
  }
  return node;
}

function getValue(doc, pointer, op) {
  return resolve(doc, parsePointer(pointer), op);
}

// Each of these returns the (possibly replaced) document root.
function addValue(doc, pointer, value, op) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const last = tokens.pop();
  const parent = resolve(doc, tokens, op);
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(last, parent.length, true, op), 0, value);
  } else if (isObject(parent)) {
    parent[last] = value;
  } else {
    throw new PatchError(`cannot add to ${JSON.stringify(pointer)}: parent is not a container`, op);
  }
  return doc;
}

function removeValue(doc, pointer, op) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new PatchError("cannot remove the whole document", op);
  const last = tokens.pop();
  const parent = resolve(doc, tokens, op);
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(last, parent.length, false, op), 1);
  } else if (isObject(parent) && Object.hasOwn(parent, last)) {
    delete parent[last];
  } else {
    throw new PatchError(`path ${JSON.stringify(pointer)} does not exist`, op);
  }
  return doc;
}

function requireField(op, field) {
  if (!Object.hasOwn(op, field)) throw new PatchError(`"${op.op}" needs "${field}"`, op);
}

function applyOne(doc, op) {
  if (!isObject(op) || typeof op.op !== "string") throw new PatchError("not an operation", op);
  requireField(op, "path");
  switch (op.op) {
    case "add":
      requireField(op, "value");
      return addValue(doc, op.path, clone(op.value), op);
    case "remove":
      return removeValue(doc, op.path, op);
    case "replace": {
      requireField(op, "value");
      getValue(doc, op.path, op); // the target must exist
      if (op.path === "") return clone(op.value);
      return addValue(removeValue(doc, op.path, op), op.path, clone(op.value), op);
    }
    case "move": {
      requireField(op, "from");
      if (op.path === op.from) return doc;
      if (op.path.startsWith(`${op.from}/`)) {
        throw new PatchError("cannot move a value into one of its children", op);
      }
      const value = getValue(doc, op.from, op);
      return addValue(removeValue(doc, op.from, op), op.path, value, op);
    }
    case "copy":
      requireField(op, "from");
      return addValue(doc, op.path, clone(getValue(doc, op.from, op)), op);
    case "test":
      requireField(op, "value");
      if (!deepEqual(getValue(doc, op.path, op), op.value)) {
        throw new PatchError(`test failed at ${JSON.stringify(op.path)}`, op);
      }
      return doc;
    default:
      throw new PatchError(`unknown operation ${JSON.stringify(op.op)}`, op);
  }
}

/**
 * Apply `ops` to `doc` and return the new document; `doc` itself is never changed.
 * @throws {PatchError} when any operation fails (then nothing is applied).
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is a list of operations");
  let result = clone(doc);
  for (const op of ops) result = applyOne(result, op);
  return result;
}
