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

  // Material makes its search results box a Tab stop, even while the search is closed or
  // has found nothing. Without tabindex the browser makes it one only while it scrolls,
  // which essay.css allows only while the search is open: then it holds results.
  document.querySelectorAll(".md-search__scrollwrap[tabindex]").forEach((box) => box.removeAttribute("tabindex"));
})();
