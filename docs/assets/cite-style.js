// Each list of citations shows one style, the reader's choice, with the others one choice
// away in a menu above it; the choice holds on every page, and on the next visit. Without
// this script, every style is shown (essay.css shows one only once the page is marked).
(() => {
  const KEY = "essay-citation-style";
  const lists = (root) => root.querySelectorAll("dl.citations");
  const styles = [...new Set([...document.querySelectorAll("dl.citations > dt[data-style]"),
    ...[...document.querySelectorAll("template")].flatMap((t) => [...t.content.querySelectorAll("dl.citations > dt")])]
    .map((dt) => dt.dataset.style))];
  if (!styles.length) return;

  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch { /* storage refused: the choice lasts the page */ }
  const root = document.documentElement;
  const choose = (style) => {
    root.dataset.citeStyle = style;
    for (const select of document.querySelectorAll("select.cite-style")) select.value = style;
  };

  const addMenu = (list) => {
    const own = [...list.querySelectorAll(":scope > dt[data-style]")].map((dt) => dt.dataset.style);
    if (own.length < 2) return;  // a list of one style (the printed essay's "Cite as") shows it
    list.classList.add("citations--chosen");
    const label = document.createElement("label");
    label.className = "cite-style-choice";
    label.setAttribute("data-search-exclude", "");
    const select = document.createElement("select");
    select.className = "cite-style";
    for (const style of own) select.add(new Option(style, style));
    select.value = root.dataset.citeStyle;
    label.append("Citation style ", select);
    list.before(label);
  };

  choose(styles.includes(stored) ? stored : styles[0]);
  lists(document).forEach(addMenu);
  // The transcript's panel is made from a template: its list gets its menu there, once.
  for (const template of document.querySelectorAll("template")) lists(template.content).forEach(addMenu);

  document.addEventListener("change", (event) => {
    if (!event.target.matches("select.cite-style")) return;
    choose(event.target.value);
    try { localStorage.setItem(KEY, event.target.value); } catch { /* as above */ }
  });
})();

// A link to a fold of citations (the byline's "Cite", to #cite-this-section) opens it:
// the browser would scroll to it closed.
(() => {
  const open = () => {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target instanceof HTMLDetailsElement) target.open = true;
  };
  open();
  addEventListener("hashchange", open);
})();
