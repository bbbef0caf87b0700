// Material's search overlay has role="dialog" but no name; screen readers announce it as "Search".
document.querySelectorAll('.md-search[role="dialog"]:not([aria-label])').forEach((dialog) => {
  dialog.setAttribute("aria-label", "Search");
});
