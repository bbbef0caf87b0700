// Material's search overlay has role="dialog" but no name; screen readers announce it as "Search".
document.querySelectorAll('.md-search[role="dialog"]:not([aria-label])').forEach((dialog) => {
  dialog.setAttribute("aria-label", "Search");
});

// On a narrow screen the header's search field is hidden until the search opens, yet it is
// a Tab stop, and focused it opens the whole-screen search: a reader tabbing through the
// header landed in it. There it takes no Tab stop while the search is closed; a button,
// in place of Material's search icon (a <label>, which the keyboard cannot reach), opens
// it, as do Material's keys "/" and "s", and the field is focused. Wide, the field stands
// in the header and stays a Tab stop.
(() => {
  const toggle = document.getElementById("__search");
  const query = document.querySelector(".md-search__input");
  const icon = document.querySelector('.md-header label.md-header__button[for="__search"]');
  if (!toggle || !query || !icon) return;
  const wide = matchMedia("(min-width: 60em)");  // where Material shows the field in the header

  // The label stays, hidden: Material finds it to focus the field when it is clicked.
  const button = document.createElement("button");
  button.type = "button";
  button.className = `${icon.className} md-header__search`;
  button.setAttribute("aria-label", "Search");
  button.setAttribute("aria-haspopup", "dialog");
  button.append(...icon.childNodes);
  button.addEventListener("click", () => icon.click());
  icon.before(button);
  icon.hidden = true;

  const update = () => {
    if (wide.matches || toggle.checked) query.removeAttribute("tabindex");
    else query.tabIndex = -1;
  };
  update();
  wide.addEventListener("change", update);
  // Focused by any way, the field opens the search: Material does so too, but after a
  // pause, and not when the focus left it and came back within that pause (Escape, then
  // "/" at once). After a task, so that a click on the label, which opens it, comes first.
  query.addEventListener("focus", () => setTimeout(() => {
    if (document.activeElement === query && !toggle.checked) toggle.click();
  }));
  toggle.addEventListener("change", () => {
    update();
    // Closed by Escape or Tab, the search leaves the focus where it was opened.
    if (!toggle.checked && !wide.matches && document.activeElement?.closest(".md-search")) button.focus();
  });
})();
