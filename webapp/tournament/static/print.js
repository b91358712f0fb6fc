// The Print buttons of the board and the table cards (no inline handler: the pages' CSP allows
// scripts from files only). Delegated, so a button redrawn by the live board still prints.
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
