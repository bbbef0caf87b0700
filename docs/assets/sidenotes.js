// Where the page is wide and its right margin holds nothing (no table of contents), the
// cited messages shown after a paragraph stand in that margin, beside the paragraph, as
// sidenotes; each below the one before where two would meet. Elsewhere they stay between
// the paragraphs, as the page is written.
(() => {
  const article = document.querySelector("article.md-content__inner");
  const margin = document.querySelector(".md-sidebar--secondary");
  const notes = () => (article ? [...article.querySelectorAll(":scope > .msg-snippets")] : []);
  if (!notes().length || !margin) return;
  const wide = matchMedia("(min-width: 76.25em)");  // where the theme shows its right column
  const GAP = 12;  // px between two sidenotes

  const place = () => {
    const free = wide.matches && !margin.querySelector(".md-nav__link");
    document.documentElement.classList.toggle("has-sidenotes", free);
    if (!free) {
      article.style.minHeight = "";
      for (const note of notes()) note.style.top = "";
      return;
    }
    const origin = article.getBoundingClientRect().top;
    let below = 0;
    for (const note of notes()) {
      let beside = note.previousElementSibling;  // the paragraph, before any other note
      while (beside && beside.matches(".msg-snippets")) beside = beside.previousElementSibling;
      beside = beside || note;
      const top = Math.max(beside.getBoundingClientRect().top - origin, below);
      note.style.top = `${top}px`;
      below = top + note.offsetHeight + GAP;
    }
    // The last one never hangs past the page's end. Set only when it changes: each change
    // resizes the article, which the observer below reports.
    if (article.style.minHeight !== `${below}px`) article.style.minHeight = `${below}px`;
  };

  place();
  wide.addEventListener("change", place);
  addEventListener("resize", place);
  // Images, fonts and opened folds move the paragraphs: the notes follow.
  new ResizeObserver(place).observe(article);
})();
