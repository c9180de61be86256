// The declarations: protocol.d.ts is what the schemas make now, the README's examples
// and examples/bot.js type-check against index.d.ts, and the vendored fast-json-patch
// the browser loads is the installed one.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { generate, OUTPUT } from "../scripts/generate-types.js";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));

function tsc(args) {
  const bin = join(PACKAGE, "node_modules/typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [bin, ...args], { encoding: "utf8", stdio: "pipe" });
  } catch (err) {
    assert.fail(`tsc ${args.join(" ")} failed:\n${err.stdout}${err.stderr}`);
  }
}

test("types/protocol.d.ts is up to date with docs/schemas", async () => {
  const expected = await generate();
  assert.ok(readFileSync(OUTPUT, "utf8") === expected, "types/protocol.d.ts is out of date: run `npm run types`");
});

test("the README's examples and the bot type-check with tsc --noEmit", () => {
  const dir = join(PACKAGE, ".readme-check");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  try {
    const readme = readFileSync(join(PACKAGE, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/```(js|ts)\n([\s\S]*?)```/g)];
    assert.ok(blocks.length >= 3);
    const files = blocks.map(([, lang, code], i) => {
      const name = `example${i}.${lang}`;
      // Each example is a module of its own (top-level await, its own imports).
      writeFileSync(join(dir, name), `${code}\nexport {};\n`);
      return name;
    });
    writeFileSync(join(dir, "bot.js"), readFileSync(join(PACKAGE, "examples/bot.js")));
    const tsconfig = {
      compilerOptions: {
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        strict: true,
        allowJs: true,
        checkJs: true,
        noEmit: true,
        // @types/node is large to check; the package's own declarations are checked
        // whole below.
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [join(PACKAGE, "node_modules/@types")],
      },
      files: [...files, "bot.js"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    tsc(["-p", dir]);
    // The declarations themselves, in a browser's setting (no Node types).
    const declarations = {
      compilerOptions: { module: "nodenext", target: "es2022", lib: ["es2022", "dom"], strict: true, noEmit: true, types: [] },
      files: [join(PACKAGE, "types/index.d.ts")],
    };
    writeFileSync(join(dir, "declarations.json"), JSON.stringify(declarations));
    tsc(["-p", join(dir, "declarations.json")]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the vendored fast-json-patch is the installed one, licence included", () => {
  const vendored = join(PACKAGE, "vendor/fast-json-patch");
  const installed = join(PACKAGE, "node_modules/fast-json-patch");
  const files = ["index.mjs", "LICENSE.txt", ...readdirSync(join(vendored, "module")).map((f) => `module/${f}`)];
  assert.deepEqual(
    readdirSync(join(vendored, "module")).sort(),
    readdirSync(join(installed, "module"))
      .filter((f) => f.endsWith(".mjs"))
      .sort(),
  );
  for (const file of files) {
    assert.ok(readFileSync(join(vendored, file)).equals(readFileSync(join(installed, file))), `${file} differs`);
  }
});
