// The keyboard reaches what the pointer does, and only what is on screen.
(() => {
  // On a narrow screen the navigation opens from the header's menu button, and in it the
  // page's table of contents from the page's name: each a <label> for a checkbox, and a
  // label is no Tab stop, so each is made a button. Where Material does not show them
  // (display: none, on a wide screen), they stay out of the Tab order.
  const asButton = (label, name) => {
    const box = document.getElementById(label.htmlFor);
    if (!box) return;
    label.setAttribute("role", "button");
    if (name) label.setAttribute("aria-label", name);
    label.tabIndex = 0;
    // Material opens and closes the drawer without an event of the checkbox: the state is
    // read again whenever the button is used or reached.
    const expanded = () => label.setAttribute("aria-expanded", String(box.checked));
    expanded();
    box.addEventListener("change", expanded);
    label.addEventListener("focus", expanded);
    // Material's own keyboard handling clicks a focused label on Enter; Space, as on a button, too.
    label.addEventListener("keydown", (event) => {
      if (event.key === " ") {
        event.preventDefault();
        label.click();
      }
    });
  };
  document.querySelectorAll('.md-header label[for="__drawer"]').forEach((label) => asButton(label, "Navigation"));
  document.querySelectorAll('.md-nav--primary label[for="__toc"]').forEach((label) => asButton(label));

  // Material's search results box is a Tab stop of its own, though empty until a search
  // is typed, and Tab closes the search. Its results are reached from the search field
  // with the arrow keys. Chromium makes a scrolling box a Tab stop even without tabindex.
  document.querySelectorAll(".md-search__scrollwrap").forEach((box) => { box.tabIndex = -1; });
})();
