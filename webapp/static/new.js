// The new-match form: show as many seats and only the house rules the chosen game has.
(() => {
  "use strict";
  const select = document.getElementById("variant");
  if (!select) return;
  function update() {
    const option = select.selectedOptions[0];
    const counts = option.dataset.players.split(",").map(Number);
    const most = Math.max(...counts);
    const least = Math.min(...counts);
    document.querySelectorAll(".player").forEach((label) => {
      const seat = Number(label.dataset.seat);
      label.hidden = seat >= most;
      const input = label.querySelector("input");
      input.required = seat < least;
      input.disabled = seat >= most;
    });
    document.getElementById("teams-hint").hidden = option.dataset.teams !== "1";
    // The options name the game only (they fit a phone); what else it is goes under the select.
    document.getElementById("variant-details").textContent = option.dataset.details || "";
    const say = window.spinnerSay || ((key) => key); // words.js: the page's language
    document.getElementById("variant-hint").textContent =
      counts.length > 1 ? say("players_range", { least, most }) : most === 1 ? say("players_one") : say("players_n", { n: most });
    // What the game does where the form says nothing: its own target, each house rule's default.
    document.getElementById("target-hint").textContent = say("target_default", { target: option.dataset.target });
    // a game with no target (twelve, the memory game: attempts and time) has no target field
    const targetField = document.getElementById("target-field");
    targetField.hidden = option.dataset.target === "";
    targetField.querySelector("input").disabled = option.dataset.target === "";
    // one player alone (twelve) has no play order
    document.getElementById("play-order").hidden = most < 2;
    const defaults = JSON.parse(option.dataset.defaults || "{}");
    const options = option.dataset.options.split(",");
    document.querySelectorAll("[data-option]").forEach((label) => {
      const name = label.dataset.option;
      const shown = name === "preset" ? option.dataset.presets !== "" : options.includes(name);
      label.hidden = !shown;
      label.querySelector("select").disabled = !shown;
      const standing = label.querySelector('option[value=""]');
      if (name !== "preset" && shown) standing.textContent = say("option_default", { choice: defaults[name] || "" });
    });
    // "House rules" folded away only where the game has some (twelve's one choice is in sight above)
    const houseRules = document.querySelector("details.options");
    if (houseRules) houseRules.hidden = !houseRules.querySelector("[data-option]:not([hidden])");
  }
  select.addEventListener("change", update);
  update();
})();
