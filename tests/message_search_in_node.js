// The transcript's search script (docs/assets/message-search.js) run in Node, over an
// index on disk, with as much of a page as it uses: a form, its box, its status and its
// list of results, and <script> elements that load the index's files. Prints, for each
// query given as an argument, the results it lists: [[title, address], ...], as JSON.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const { fileURLToPath, pathToFileURL } = require("url");

const [script, folder, ...queries] = process.argv.slice(2);

class Element {
  constructor(tag) {
    this.tagName = tag;
    this.children = [];
    this.dataset = {};
    this.listeners = {};
    this.textContent = "";
    this.value = "";
  }
  append(...children) {
    this.children.push(...children);
    for (const child of children) {
      if (child.tagName === "script") loadScript(child);
    }
  }
  replaceChildren(...children) { this.children = children; }
  addEventListener(type, listener) { this.listeners[type] = listener; }
  remove() {}
}

// A script element's file, run as the page would run it, after the current task.
const loadScript = (element) => setTimeout(() => {
  let code;
  try {
    code = fs.readFileSync(fileURLToPath(element.src), "utf8");
  } catch {
    element.onerror();
    return;
  }
  vm.runInThisContext(code);
  element.onload();
}, 0);

const form = new Element("form");
const parts = { input: new Element("input"), ".msg-search__status": new Element("p"),
  ".msg-search__results": new Element("ol") };
form.querySelector = (selector) => parts[selector];
form.dataset.index = "index.js";
globalThis.window = globalThis;
globalThis.document = {
  baseURI: pathToFileURL(path.resolve(folder) + "/").href,
  head: new Element("head"),
  createElement: (tag) => new Element(tag),
  querySelector: (selector) => (selector === "form.msg-search[data-index]" ? form : null),
};
vm.runInThisContext(fs.readFileSync(script, "utf8"));

const listed = async (query) => {
  parts.input.value = query;
  form.listeners.submit({ preventDefault() {} });
  while (form.dataset.answered !== query) await new Promise((resolve) => setTimeout(resolve, 1));
  return parts[".msg-search__results"].children.map((item) => [item.children[0].textContent, item.children[0].href]);
};

(async () => {
  const answers = [];
  for (const query of queries) answers.push(await listed(query));
  process.stdout.write(JSON.stringify(answers));
})();
