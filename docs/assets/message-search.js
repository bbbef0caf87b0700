// The transcript's search box. It reads the transcript's own index (written by
// hooks/transcriptsite/message_index.py): a list of pages and shards, then the shard of each word
// typed, then the short texts of the first messages found, so that a query loads only
// what it needs however long the session. Words are read as the index reads them. Each
// file of the index is a script that hands its data to messageSearchLoaded: loaded by a
// <script> element, it is read in the copy opened from disk too, where fetch is refused.
(() => {
  "use strict";
  const form = document.querySelector("form.msg-search[data-index]");
  if (!form) return;
  const input = form.querySelector("input");
  const status = form.querySelector(".msg-search__status");
  const results = form.querySelector(".msg-search__results");
  const base = new URL(form.dataset.index, document.baseURI);
  const SHOWN = 50; // results listed; the count says how many more there are
  const MAX_WORD_CHARS = 40;
  const files = new Map(); // file name -> promise of its data
  const waiting = new Map(); // file name -> the promise's resolve

  window.messageSearchLoaded = (name, data) => {
    const resolve = waiting.get(name);
    waiting.delete(name);
    if (resolve) resolve(data);
  };

  const load = (file) => {
    if (!files.has(file)) {
      files.set(file, new Promise((resolve, reject) => {
        waiting.set(file, resolve);
        const script = document.createElement("script");
        script.src = new URL(file, base).href;
        script.onerror = () => { // not kept: a later query tries again
          files.delete(file);
          waiting.delete(file);
          script.remove();
          reject(new Error(`${file} could not be loaded`));
        };
        script.onload = () => script.remove();
        document.head.append(script);
      }));
    }
    return files.get(file);
  };

  const words = (text) => [...new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || [])]
    .filter((word) => [...word].length <= MAX_WORD_CHARS);

  // The index says how many of a word's first characters name its shard.
  const shardName = (word, keyChars) => [...word].slice(0, keyChars)
    .map((char) => char.codePointAt(0).toString(16)).join("-");

  // The numbers of the messages holding a word that starts with `word` (a word of one
  // character: that word alone), in order.
  const numbersFor = async (word, index) => {
    const shard = shardName(word, index.key);
    if (!index.shards.includes(shard)) return [];
    const postings = await load(`${shard}.js`);
    const found = new Set();
    for (const [term, deltas] of postings) { // pairs, not an object: "__proto__" is a word too
      if (term === word || ([...word].length > 1 && term.startsWith(word))) {
        let n = 0;
        for (const delta of deltas) found.add((n += delta));
      }
    }
    return [...found].sort((a, b) => a - b);
  };

  // The page holding message n: the last whose first message is n or before it.
  const pageOf = (pages, n) => {
    let low = 0;
    let high = pages.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (pages[middle][0] <= n) low = middle;
      else high = middle - 1;
    }
    return pages[low];
  };

  // A query that is a message's number ("5852", "msg 5852", "#5852"): that number, and
  // whether the transcript pages show its message, with the page holding it; null for
  // any other query.
  const numberTyped = async (typed, index) => {
    const match = typed.trim().match(/^(?:msg\s*|#)?(\d{1,15})$/i);
    if (!match || !index.pages.length) return null;
    const n = Number(match[1]);
    const page = pageOf(index.pages, n);
    const excerpts = await load(page[1]);
    return { n, page, excerpts, shown: Object.hasOwn(excerpts, String(n)) };
  };

  // What the pages hold, for a number they do not show: the first and last message.
  const span = async (index) => {
    const last = Object.keys(await load(index.pages[index.pages.length - 1][1])).map(Number);
    return `The transcript's pages run from message ${index.pages[0][0]} to message ${Math.max(...last)}.`;
  };

  const resultItem = (n, page, excerpts, label) => {
    const [heading, text] = excerpts[n] || [`Message ${n}`, ""];
    const title = label ? `${label}: ${heading}` : heading;
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = new URL(`${page[2]}#msg-${n}`, base).href;
    link.textContent = title; // the log's words as text, never as markup
    item.append(link);
    if (text) {
      const excerpt = document.createElement("p");
      excerpt.textContent = text;
      item.append(excerpt);
    }
    return item;
  };

  // The query whose results are listed, once they are (for a reader's tools and tests).
  const answered = (typed) => { form.dataset.answered = typed; };

  let asked = 0;
  // Lists what `input` finds; with `go`, a message's number typed goes to that message.
  const search = async (go = false) => {
    const typed = input.value;
    const query = words(typed);
    const mine = ++asked;
    if (!query.length) {
      results.replaceChildren();
      status.textContent = "";
      answered(typed);
      return;
    }
    try {
      const index = await load("index.js");
      let found = null; // the numbers holding every word so far
      for (const word of query) {
        const numbers = await numbersFor(word, index);
        const before = found;
        found = new Set(before === null ? numbers : numbers.filter((n) => before.has(n)));
        if (!found.size) break;
      }
      const numbers = [...found].sort((a, b) => a - b);
      const shown = numbers.slice(0, SHOWN);
      const pages = shown.map((n) => pageOf(index.pages, n));
      const excerpts = await Promise.all(pages.map((page) => load(page[1])));
      const number = await numberTyped(typed, index);
      const goTo = number && number.shown ? number : null;
      const absent = number && !number.shown ? `There is no message ${number.n} on the transcript's pages. `
        + `${await span(index)} ` : "";
      if (mine !== asked) return; // a later query has been typed
      const items = shown.map((n, i) => resultItem(n, pages[i], excerpts[i]));
      if (goTo) items.unshift(resultItem(goTo.n, goTo.page, goTo.excerpts, `Go to message ${goTo.n}`));
      results.replaceChildren(...items);
      const count = !numbers.length ? "No message holds all these words."
        : numbers.length === 1 ? "1 message found."
        : numbers.length > SHOWN ? `${numbers.length.toLocaleString("en")} messages found; the first ${SHOWN} are listed.`
        : `${numbers.length} messages found.`;
      status.textContent = goTo ? `Message ${goTo.n} is in the transcript. ${count}` : absent + count;
      answered(typed);
      // Followed as a click on it is, so that the page's scripts see where it goes.
      if (go && goTo) results.querySelector("a").click();
    } catch (error) {
      if (mine !== asked) return;
      results.replaceChildren();
      status.textContent = "The transcript's search could not be loaded.";
      answered(typed);
      console.warn(error);
    }
  };

  let timer = 0;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, 150);
  });
  // Enter: a message's number goes to it; words list what they find.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    search(true);
  });
  form.hidden = false;
})();
