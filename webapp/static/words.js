// The page's words for its scripts, in the page's language: the server hands them over as JSON
// (webapp/wording.py, script_words), so every sentence is in the catalogue and no script is inline.
(() => {
  "use strict";
  const box = document.getElementById("page-words");
  const words = box ? JSON.parse(box.textContent) : {};
  // say("where", {tile: "3-5"}): the sentence with its {names} filled in.
  window.spinnerSay = (key, values = {}) =>
    (words[key] || key).replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
})();
