/* Small helpers of the server-rendered pages; everything works without them, they only make
   the pages nicer: show the fields the chosen game needs, count the round clock down, and
   ask before destructive buttons. Re-applied to content htmx swaps in (htmx.onLoad). */
(function () {
  "use strict";

  // The game is a select on the organiser's pages and a row of buttons (radios) on a phone.
  function chosenGame(form) {
    var select = form.querySelector("select[name=game]");
    if (select) return select.value;
    var radio = form.querySelector("input[name=game]:checked");
    return radio ? radio.value : "";
  }

  function gameFields(form) {
    var script = document.getElementById("game-fields");
    if (!script) return;
    var map = JSON.parse(script.textContent || "{}");
    if (!form.querySelector("select[name=game], input[name=game]")) return;
    var wanted = map[chosenGame(form)];
    form.querySelectorAll("[data-field]").forEach(function (el) {
      // The game comes first; then only the fields it needs are shown (and posted).
      var show = !!wanted && wanted.indexOf(el.getAttribute("data-field")) !== -1;
      el.hidden = !show;
      el.querySelectorAll("input, select, textarea").forEach(function (input) {
        input.disabled = !show;
      });
    });
    // TRI + 1: in klop all four play, so the rotation's resting player is named the talon
    // (the game's "all_play" mark); the words only change, the choice is still posted.
    var allPlay = !!wanted && wanted.indexOf("all_play") !== -1;
    form.querySelectorAll("[data-rest]").forEach(function (el) {
      el.hidden = (el.getAttribute("data-rest") === "plays") !== allPlay;
    });
  }

  // TRI + 1: the player who rests this hand neither declares nor partners.
  function restingChips(form) {
    var resting = form.querySelector("select[name=resting]");
    if (!resting) return;
    form.querySelectorAll("fieldset[data-field=declarer] .chip, fieldset[data-field=partner] .chip")
      .forEach(function (chip) {
        var out = resting.value !== "" && chip.getAttribute("data-value") === resting.value;
        chip.hidden = out;
        var input = chip.querySelector("input");
        if (out && input && input.checked) input.checked = false;
      });
  }

  function initHandForms(root) {
    root.querySelectorAll("form.hand-form").forEach(function (form) {
      if (form.dataset.ready) return;
      form.dataset.ready = "1";
      var select = form.querySelector("select[name=game]");
      if (select) {
        select.addEventListener("change", function () { gameFields(form); });
        if (!select.value && !form.querySelector(".has-error")) select.focus();
      }
      form.querySelectorAll("input[name=game]").forEach(function (radio) {
        radio.addEventListener("change", function () { gameFields(form); });
      });
      var resting = form.querySelector("select[name=resting]");
      if (resting) resting.addEventListener("change", function () { restingChips(form); });
      gameFields(form);
      restingChips(form);
    });
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tickClocks() {
    document.querySelectorAll(".clock[data-clock-start]").forEach(function (clock) {
      var start = Date.parse(clock.getAttribute("data-clock-start"));
      var minutes = parseInt(clock.getAttribute("data-clock-minutes"), 10);
      if (isNaN(start) || isNaN(minutes)) return;
      var left = Math.round((start + minutes * 60000 - Date.now()) / 1000);
      var out = clock.querySelector(".clock-time");
      if (left <= 0) {
        clock.classList.add("over");
        out.textContent = clock.getAttribute("data-label-over") || "0:00";
        return;
      }
      clock.classList.toggle("last-minutes", left <= 300);
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      out.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    });
  }

  // Destructive actions ask first: data-confirm on the form, or on the one button of a form
  // that does something destructive (withdraw among check-in buttons). Listening in the
  // capture phase lets a "no" stop htmx's own submit handler as well.
  function initConfirms() {
    if (document.documentElement.dataset.confirmReady) return;
    document.documentElement.dataset.confirmReady = "1";
    document.addEventListener("submit", function (event) {
      var button = event.submitter;
      var text = (button && button.getAttribute("data-confirm")) ||
        event.target.getAttribute("data-confirm");
      if (text && !window.confirm(text)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    }, true);
  }

  // The content security policy allows no inline handlers: selects that submit their form
  // on change say so with data-autosubmit.
  function initAutosubmit(root) {
    root.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
      if (select.dataset.autosubmitReady) return;
      select.dataset.autosubmitReady = "1";
      select.addEventListener("change", function () { select.form.submit(); });
    });
  }

  // "updated 5 s ago" under what refreshes itself: counted from when the part arrived.
  function tickUpdated() {
    var now = Date.now();
    document.querySelectorAll(".updated[data-template]").forEach(function (el) {
      if (!el.dataset.t0) el.dataset.t0 = String(now);
      var seconds = Math.round((now - parseInt(el.dataset.t0, 10)) / 1000);
      el.textContent = el.getAttribute("data-template").replace("{s}", String(seconds));
    });
  }

  function init(root) {
    initAutosubmit(root);
    initHandForms(root);
    initConfirms(root);
    tickClocks();
    tickUpdated();
  }

  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    setInterval(tickClocks, 1000);
    setInterval(tickUpdated, 1000);
    if (window.htmx) window.htmx.onLoad(function (el) { init(el); });
  });
})();
