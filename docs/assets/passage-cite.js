// "Cite this passage": words selected in one of the essay's paragraphs (a p or li with its
// ¶ mark) or in the text of a transcript message offer, under that paragraph or message, a
// button that shows their citation: the page's one panel (written by the build as a
// template, from the same record as the section's or the message's citation) made out with
// the words quoted and a link to them. The link is the address the page is served at, the
// paragraph's or message's anchor and a text fragment (#p-…:~:text=…) that lands on the
// words, on this occurrence of them. A selection that runs from one paragraph or message
// into another, or lies outside any, offers nothing.
(() => {
  const template = document.getElementById("passage-cite-template");
  if (!template || !window.getSelection) return;
  const holes = template.dataset;
  // What a passage's text leaves out: the ¶ marks, and this script's own button and panel.
  const SKIPPED = "a.paragraph-link, .passage-cite";
  const BLOCKS = "p, li, pre, blockquote, h1, h2, h3, h4, h5, h6, td, th, dd, dt, div, figure, table";
  const WORD = /[\p{L}\p{N}\p{M}]/u;
  const isWord = (char) => char !== undefined && WORD.test(char);

  // The paragraph or message a text node is part of, and the anchor a link to it names.
  const citable = (node) => {
    const element = node.parentElement;
    const entry = element.closest(".msg-item[data-msg] .msg-entry");
    if (entry) {
      const number = entry.closest(".msg-item").dataset.msg;
      return { block: entry, anchor: `msg-${number}`, number };
    }
    const paragraph = element.closest("article p[id], article li[id]");
    if (paragraph && paragraph.querySelector(":scope > a.paragraph-link")) return { block: paragraph, anchor: paragraph.id };
    return null;
  };

  const textNodes = function* (root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement.closest(SKIPPED)) yield node;
    }
  };

  // The selection as a passage: its block, and the block's text (white space collapsed)
  // with where the words selected begin and end, widened to whole words, as a text
  // fragment matches only whole words; null if it is no passage.
  const passageOf = (selection) => {
    if (!selection.rangeCount || selection.isCollapsed) return null;
    const range = selection.getRangeAt(0);
    const common = range.commonAncestorContainer;
    let place = null;
    for (const node of textNodes(common.nodeType === Node.TEXT_NODE ? common.parentNode : common)) {
      if (!range.intersectsNode(node)) continue;
      const from = node === range.startContainer ? range.startOffset : 0;
      const to = node === range.endContainer ? range.endOffset : node.length;
      if (!node.data.slice(from, to).trim()) continue;
      const found = citable(node);
      if (!found || (place && found.block !== place.block)) return null;
      place ??= found;
    }
    if (!place) return null;
    let text = "", start = null, end = null, lastBlock = null;
    const breaks = [];  // where the text passes from one block element to the next
    for (const node of textNodes(place.block)) {
      const block = node.parentElement.closest(BLOCKS);
      if (lastBlock && block !== lastBlock && text && !text.endsWith(" ")) text += " ";
      if (lastBlock && block !== lastBlock) breaks.push(text.length);
      lastBlock = block;
      const selected = range.intersectsNode(node);
      const from = node === range.startContainer ? range.startOffset : 0;
      const to = node === range.endContainer ? range.endOffset : node.length;
      for (let i = 0; i <= node.length; i++) {
        if (selected && start === null && i === from) start = text.length;
        if (selected && i === to) end = text.length;
        if (i === node.length) break;
        if (!/\s/.test(node.data[i])) text += node.data[i];
        else if (text && !text.endsWith(" ")) text += " ";
      }
    }
    if (start === null || end === null) return null;
    while (start < end && text[start] === " ") start++;
    while (end > start && text[end - 1] === " ") end--;
    while (start > 0 && isWord(text[start - 1]) && isWord(text[start])) start--;
    while (end < text.length && isWord(text[end - 1]) && isWord(text[end])) end++;
    if (start >= end) return null;
    return { ...place, text, start, end, breaks: breaks.filter((at) => at > start && at < end) };
  };

  // --- the text fragment ------------------------------------------------------------

  const collapsed = (text) => text.replace(/\s+/g, " ");
  // A directive's terms are percent-encoded, "-", "," and "&" included (they part the terms).
  const encoded = (term) => encodeURIComponent(term).replace(/-/g, "%2D");
  const words = (text) => text.split(" ").filter(Boolean);

  // Where `term` first stands in `text` as whole words, ignoring case, as browsers match.
  const firstAt = (text, term) => {
    const haystack = text.toLowerCase(), needle = term.toLowerCase();
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
      const before = haystack[at - 1], after = haystack[at + needle.length];
      if (!(isWord(before) && isWord(needle[0])) && !(isWord(after) && isWord(needle.at(-1)))) return at;
    }
    return -1;
  };

  // The text directive of a passage: the words (or, for many words or words in more than
  // one block, the first and the last few), with as many words before them, and if need
  // be after them, as make this occurrence the first of the page, which a browser lands on.
  const directive = (passage) => {
    const { text, start, end, breaks } = passage;
    const quoted = text.slice(start, end);
    let first = quoted, last = null;
    const all = words(quoted);
    if (breaks.length || all.length > 10) {
      const opening = breaks.length ? text.slice(start, breaks[0]).trim() : quoted;
      const closing = breaks.length ? text.slice(breaks.at(-1), end).trim() : quoted;
      first = words(opening).slice(0, 5).join(" ");
      // The last words, as many as it takes for them to stand nowhere earlier after the first.
      const closingWords = words(closing);
      let count = Math.min(5, closingWords.length);
      const rest = () => quoted.slice(first.length);
      for (; count < closingWords.length; count++) {
        const term = closingWords.slice(-count).join(" ");
        if (firstAt(rest(), term) === rest().length - term.length) break;
      }
      last = closingWords.slice(-count).join(" ");
    }
    // The page's text up to the passage's block, then the block's own.
    const before = document.createRange();
    before.setStart(document.body, 0);
    before.setEndBefore(passage.block);
    const preceding = collapsed(before.toString()) + " ";
    const starts = [...text.slice(0, start).matchAll(/\S+/g)].map((match) => match.index);
    const ends = [...text.slice(end).matchAll(/\S+/g)].map((match) => end + match.index + match[0].length);
    // Whether the words from `from` to `to` stand nowhere earlier in the page.
    const landsHere = (from, to) => {
      const upTo = preceding + text.slice(0, from);
      const term = text.slice(from, to);
      return firstAt(upTo + term, term) === upTo.length;
    };
    const reach = last === null ? end : start + first.length;  // what the first term covers
    let from = start, to = reach;
    for (let count = 1; !landsHere(from, to) && count <= starts.length; count++) from = starts[starts.length - count];
    if (last === null) {
      for (let count = 1; !landsHere(from, to) && count <= ends.length; count++) to = ends[count - 1];
    }
    const prefix = text.slice(from, start).trim(), suffix = text.slice(reach, to).trim();
    const terms = [prefix && `${encoded(prefix)}-`, encoded(first), last && encoded(last), suffix && `-${encoded(suffix)}`];
    return terms.filter(Boolean).join(",");
  };

  const address = (passage) => `${location.href.replace(/#.*$/, "")}#${passage.anchor}:~:text=${directive(passage)}`;

  // --- the button and its panel ----------------------------------------------------------

  let shown = null;  // { passage, control, button, panel }
  let pressing = false;  // a press on the button has begun: the selection it clears stays cited

  const remove = () => {
    if (!shown) return;
    shown.control.remove();
    shown = null;
  };

  const closePanel = () => {
    if (!shown || !shown.panel) return;
    shown.panel.remove();
    shown.panel = null;
    shown.button.setAttribute("aria-expanded", "false");
    shown.button.removeAttribute("aria-controls");
  };

  const offer = (passage) => {
    if (shown && shown.passage.block === passage.block && !shown.panel) {
      shown.passage = passage;
      return;
    }
    remove();
    const control = Object.assign(document.createElement("div"), { className: "passage-cite" });
    control.setAttribute("data-search-exclude", "");
    const button = Object.assign(document.createElement("button"), {
      type: "button", className: "passage-cite-button", textContent: "Cite this passage",
    });
    button.setAttribute("aria-expanded", "false");
    control.append(button);
    // Under the block, in the page's flow, covering nothing; inside a list item, at its end.
    if (passage.block.tagName === "LI") passage.block.append(control);
    else passage.block.after(control);
    shown = { passage, control, button, panel: null };
  };

  const fill = (value, passage, link) => value
    .replaceAll(holes.quote, () => passage.text.slice(passage.start, passage.end))
    .replaceAll(holes.address, () => link)
    .replaceAll(holes.number || "\u0000", () => passage.number);

  const openPanel = () => {
    const { passage } = shown;
    const link = address(passage);
    const panel = template.content.firstElementChild.cloneNode(true);
    const texts = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) node.nodeValue = fill(node.nodeValue, passage, link);
    for (const element of [panel, ...panel.querySelectorAll("*")]) {
      for (const attribute of element.attributes) attribute.value = fill(attribute.value, passage, link);
    }
    for (const anchor of panel.querySelectorAll("a[data-passage-link]")) anchor.href = link;
    panel.id = "passage-cite-panel";
    const chosen = document.documentElement.dataset.citeStyle;
    for (const select of panel.querySelectorAll("select.cite-style")) if (chosen) select.value = chosen;
    shown.control.append(panel);
    shown.panel = panel;
    shown.button.setAttribute("aria-expanded", "true");
    shown.button.setAttribute("aria-controls", panel.id);
  };

  let pending = 0;
  document.addEventListener("selectionchange", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      const passage = passageOf(getSelection());
      if (passage) offer(passage);
      else if (shown && !shown.panel && !pressing && !shown.control.contains(document.activeElement)) remove();
    });
  });

  document.addEventListener("pointerdown", (event) => {
    pressing = Boolean(event.target.closest(".passage-cite-button"));
  }, true);

  document.addEventListener("click", (event) => {
    const button = event.target.closest(".passage-cite-button");
    pressing = false;
    if (!button || !shown || shown.button !== button) return;
    if (shown.panel) closePanel();
    else openPanel();
  });

  // Words selected from the keyboard (caret browsing): the next Tab stop is their button.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Tab" || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey || !shown) return;
    const focused = document.activeElement;
    const away = focused && focused !== document.body && !shown.passage.block.contains(focused);
    if (away || shown.control.contains(focused) || !passageOf(getSelection())) return;
    event.preventDefault();
    shown.button.focus();
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !shown || !shown.panel || !shown.control.contains(document.activeElement)) return;
    closePanel();
    shown.button.focus();
  });
})();
