// The page's words for its scripts, in the page's language: the server hands them over as JSON
// (webapp/wording.py, script_words), so every sentence is in the catalogue and no script is inline.
(() => {
  "use strict";
  const box = document.getElementById("page-words");
  const words = box ? JSON.parse(box.textContent) : {};
  // say("where", {tile: "3-5"}): the sentence with its {names} filled in.
  window.spinnerSay = (key, values = {}) =>
    (words[key] || key).replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  // A player's name in a sentence, kept in its own direction (webapp/bidi.py): marked with the
  // Unicode isolates here, made a <bdi> by spinnerShow, so "الدومينو 74" never reads "74 الدومينو".
  const FSI = "\u2068";
  const PDI = "\u2069";
  window.spinnerName = (name) => (name ? `${FSI}${name}${PDI}` : name);
  // Who makes a change, for the history (the name typed under the pad), as the X-Spinner-Who header.
  // A header holds Latin-1 only, and fetch refuses any other character (a tap for "Łukasz" or
  // "Иван" failed as if offline): a name beyond printable ASCII goes as RFC 8187's `UTF-8''` and its
  // UTF-8 percent-encoded, which webapp/auth.py reads back.
  window.spinnerWho = () => {
    const name = localStorage.getItem("spinner-who") || "";
    return /^[\x20-\x7e]*$/.test(name) && !/^utf-8''/i.test(name) ? name : `UTF-8''${encodeURIComponent(name)}`;
  };
  // A tile's name ("1-1") kept on one line: a line may break after its hyphen (app.css .tn).
  function tileNames(text) {
    return text.split(/(?<![\w-])([0-6]-[0-6])(?![\w-])/).filter(Boolean).map((part) => {
      if (!/^[0-6]-[0-6]$/.test(part)) return document.createTextNode(part);
      const span = document.createElement("span");
      span.className = "tn";
      span.textContent = part;
      return span;
    });
  }
  // Sets el's text to the sentence, each marked name a <bdi>, each tile's name whole (the element's
  // text reads the same).
  window.spinnerShow = (el, text) => {
    const parts = String(text === undefined || text === null ? "" : text).split(/(\u2068[^\u2068\u2069]*\u2069)/);
    el.replaceChildren(...parts.filter(Boolean).flatMap((part) => {
      if (part.startsWith(FSI) && part.endsWith(PDI)) {
        const bdi = document.createElement("bdi");
        bdi.textContent = part.slice(1, -1);
        return [bdi];
      }
      return tileNames(part.replace(/[\u2068\u2069]/g, ""));
    }));
  };
})();
