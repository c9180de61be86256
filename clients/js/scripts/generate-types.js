// Generates types/protocol.d.ts from the JSON Schemas in docs/schemas/ (the server's
// wire messages, views, actions and events): `npm run types`. test/types.test.js fails
// when the file is not what this script makes of the schemas now.
//
// Every schema file is self-contained (its own `$defs`), so the files share many
// definitions. They are merged into one schema whose `$defs` hold each definition once
// and each file's schema under its title, so that every type is declared once.

import { readdir, readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { compile } from "json-schema-to-typescript";

const HERE = fileURLToPath(new URL(".", import.meta.url));
export const SCHEMAS = fileURLToPath(new URL("../../../docs/schemas/", import.meta.url));
export const OUTPUT = fileURLToPath(new URL("../types/protocol.d.ts", import.meta.url));

const BANNER = `// Generated from docs/schemas/ by clients/js/scripts/generate-types.js: do not edit.
// Regenerate with \`npm run types\` in clients/js after the schemas change.`;

/** The merged schema: one `$defs` entry per definition and per schema file. */
export async function mergedSchema(dir = SCHEMAS) {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".json") && f !== "asyncapi.json").sort();
  const defs = {};
  const add = (name, schema, where) => {
    if (name in defs && !isDeepStrictEqual(defs[name], schema)) {
      throw new Error(`${where}: the definition ${name} differs from another file's`);
    }
    defs[name] = schema;
  };
  for (const file of files) {
    const { $defs = {}, $id, $schema, ...schema } = JSON.parse(await readFile(dir + file, "utf8"));
    for (const [name, def] of Object.entries($defs)) add(name, def, file);
    add(schema.title, schema, file);
  }
  for (const def of Object.values(defs)) untitle(def, true);
  return { title: "UnoProtocol", type: "object", additionalProperties: false, $defs: defs };
}

// Pydantic titles every property ("Seq", "At"), which would make a type alias of each;
// only the named definitions keep theirs.
function untitle(schema, keep) {
  if (Array.isArray(schema)) {
    for (const item of schema) untitle(item, false);
  } else if (schema && typeof schema === "object") {
    if (!keep) delete schema.title;
    for (const [key, value] of Object.entries(schema)) {
      if (key === "properties" && value && typeof value === "object") {
        for (const prop of Object.values(value)) untitle(prop, false);
      } else if (key !== "title") {
        untitle(value, false);
      }
    }
  }
}

/** The text of types/protocol.d.ts for the schemas in `dir`. */
export async function generate(dir = SCHEMAS) {
  const text = await compile(await mergedSchema(dir), "UnoProtocol", {
    bannerComment: BANNER,
    unreachableDefinitions: true,
    additionalProperties: false,
    cwd: HERE,
    format: false,
    style: { singleQuote: false },
  });
  return text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(OUTPUT, await generate());
  console.log(`wrote ${OUTPUT}`);
}
