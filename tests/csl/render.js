// Render CSL-JSON items as bibliography entries with citeproc-js, the engine of Zotero.
//
//   node tests/csl/render.js STYLE.csl LOCALE.xml < items.json
//
// Prints a JSON object: for each item's id, {"text": ..., "html": ...}, the entry as
// the style formats it in citeproc-js's text and HTML output formats, or null where the
// style leaves the item out. Each item is rendered in a bibliography of its own, as a
// reader copies one entry: no year suffix ("2026a") or other disambiguation against
// the other items.
"use strict";

const fs = require("fs");
const CSL = require("citeproc");

const [stylePath, localePath] = process.argv.slice(2);
if (!stylePath || !localePath) {
  console.error("usage: node render.js STYLE.csl LOCALE.xml < items.json");
  process.exit(2);
}
const style = fs.readFileSync(stylePath, "utf8");
const locale = fs.readFileSync(localePath, "utf8");
const items = JSON.parse(fs.readFileSync(0, "utf8"));
const byId = Object.fromEntries(items.map((item) => [item.id, item]));
const sys = { retrieveLocale: () => locale, retrieveItem: (id) => byId[id] };

function entries(format) {
  const engine = new CSL.Engine(sys, style, "en-US", true);
  engine.setOutputFormat(format);
  const result = {};
  for (const id of Object.keys(byId)) {
    engine.updateItems([id]); // the registry then holds this item alone
    const [, bibliography] = engine.makeBibliography();
    result[id] = bibliography.length ? bibliography[0].trim() : null;
  }
  return result;
}

const text = entries("text");
const html = entries("html");
const out = {};
for (const id of Object.keys(byId)) {
  out[id] = { text: text[id], html: html[id] };
}
process.stdout.write(JSON.stringify(out, null, 2) + "\n");
