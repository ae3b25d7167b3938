// The Activity's page built into the Python package (bot/activity/static/ by default, or the
// folder given as the one argument): app.js and app.css minified by esbuild, index.html as it is,
// and licenses.txt: the licence of each package app.js carries (the minified code drops them).
// The same sources and versions give the same bytes (scripts/check_activity.sh compares them).
import { build } from "esbuild";
import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "..", "bot", "activity", "static"));

await mkdir(out, { recursive: true });
await build({
  absWorkingDir: here,
  entryPoints: { app: "src/main.ts" },
  outdir: out,
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020", "chrome100", "safari15"],
  legalComments: "eof",
  charset: "utf8",
  logLevel: "warning",
});
await build({
  absWorkingDir: here,
  entryPoints: { app: "src/app.css" },
  outdir: out,
  bundle: true,
  minify: true,
  target: ["chrome100", "safari15"],
  charset: "utf8",
  logLevel: "warning",
});
await copyFile(join(here, "src", "index.html"), join(out, "index.html"));

// The packages bundled are the page's dependencies (not the build's), type declarations aside.
const lock = JSON.parse(await readFile(join(here, "package-lock.json"), "utf8"));
const notices = [];
for (const [path, entry] of Object.entries(lock.packages).sort()) {
  if (path === "" || entry.dev || path.includes("node_modules/@types/")) continue;
  const folder = join(here, path);
  const file = (await readdir(folder)).sort().find((name) => /^licen[cs]e/i.test(name));
  if (file === undefined) throw new Error(`${path} has no licence file`);
  const text = (await readFile(join(folder, file), "utf8")).trim();
  notices.push(`${path.slice(path.lastIndexOf("node_modules/") + 13)} ${entry.version}\n\n${text}\n`);
}
await writeFile(join(out, "licenses.txt"), notices.join("\n" + "-".repeat(72) + "\n\n"));
